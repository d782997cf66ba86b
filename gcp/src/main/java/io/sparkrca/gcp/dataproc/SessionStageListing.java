package io.sparkrca.gcp.dataproc;

import com.fasterxml.jackson.databind.JsonNode;
import io.sparkrca.core.error.InvalidRequestException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stage list of a Dataproc <em>session</em>'s Spark application, read as disjoint sets of stage
 * ids at once instead of one chain of page tokens, where each page waits for the one before.
 * Sessions' {@code searchStages} takes a repeated {@code stageIds} filter (batches' does not), so:
 *
 * <ol>
 *   <li>the first page (the API pages "based on stage_id") and {@code summarizeStages} (how many
 *       stages there are) are asked for side by side;
 *   <li>the ids past the first page are asked for in sets of {@value #IDS_PER_CALL}, all at once, as
 *       many as the count says are left (Spark numbers stages densely, so the guess is close);
 *   <li>when the stages found still fall short of the count (ids skipped, stages dropped by the
 *       History Server's retention), up to {@value #EXTRA_ROUNDS} more rounds of ids further on, as
 *       many as the shortfall at the density of ids seen so far.
 * </ol>
 *
 * <p>The split is only an optimisation, checked before it is trusted: the stages found must match
 * the count (as attempts or as distinct stages), and every stage a filtered call returns must be
 * one it asked for. Otherwise (a server that ignores or rejects the filter, a count that moved
 * while a running application added stages, ids it could not find) the listing falls back to the
 * token chain from the first page, so the answer is the chain's whatever the server does. Errors
 * other than a rejected filter (HTTP 400) are the caller's, with their call.
 */
final class SessionStageListing {
  /** Ids per filtered call: one full page, and a query string of about 2 KB. */
  static final int IDS_PER_CALL = SparkApplicationsClient.MAX_PAGE_SIZE;
  /** Rounds of further ids asked for when the first guess falls short of the count. */
  static final int EXTRA_ROUNDS = 2;
  /** The sparsest ids a further round allows for: it asks for at most 4 ids per stage still missing. */
  static final double MIN_DENSITY = 0.25;

  private static final Logger LOG = LoggerFactory.getLogger(SessionStageListing.class);
  private static final String METHOD = "searchStages";
  private static final String ITEMS = "sparkApplicationStages";

  /** Runs calls at most the client's parallelism at a time, answers in order. */
  interface FanOut {
    <T> List<T> run(List<? extends Callable<T>> calls);
  }

  private final SparkApplicationsClient api;
  private final String parent;
  private final String appId;
  private final Map<String, String> params;
  private final int maxItems;
  private final FanOut fan;

  SessionStageListing(SparkApplicationsClient api, String parent, String appId, Map<String, String> params, int maxItems,
      FanOut fan) {
    this.api = api;
    this.parent = parent;
    this.appId = appId;
    this.params = params;
    this.maxItems = maxItems;
    this.fan = fan;
  }

  /** Whether {@code parent} is a session, whose stage search takes the {@code stageIds} filter. */
  static boolean applies(String parent) {
    return parent.contains("/sessions/");
  }

  /** Every stage attempt, at most {@code maxItems}; {@code summary} is the application's {@code stagesSummary}. */
  SparkApplicationsClient.Paged list(Supplier<JsonNode> summary) {
    Map<String, String> first = new LinkedHashMap<>(params);
    first.put("pageSize", Integer.toString(Math.min(SparkApplicationsClient.MAX_PAGE_SIZE, maxItems)));
    List<Object> both = fan.run(List.<Callable<Object>>of(
        () -> api.call(parent, Optional.of(appId), METHOD, first), summary::get));
    JsonNode page = (JsonNode) both.get(0);
    List<JsonNode> items = new ArrayList<>();
    page.path(ITEMS).forEach(items::add);
    String next = page.path("nextPageToken").asText("");
    if (next.isEmpty() || items.size() >= maxItems) {
      return chain(items, next, 1); // one page, or the cap reached: nothing to split
    }
    long count = DataprocModel.stageCount((JsonNode) both.get(1));
    return (count > maxItems ? Optional.<SparkApplicationsClient.Paged>empty() : split(items, count))
        .orElseGet(() -> chain(items, next, 1));
  }

  /** The rest of the stages by id sets, or empty when the split cannot be trusted. */
  private Optional<SparkApplicationsClient.Paged> split(List<JsonNode> firstPage, long count) {
    long firstId = DataprocModel.num(firstPage.get(0), "stageId");
    long lastId = DataprocModel.num(firstPage.get(firstPage.size() - 1), "stageId");
    if (firstId == lastId) {
      return Optional.empty(); // one stage's attempts fill the page: no direction to go on
    }
    boolean up = firstId < lastId;
    Map<String, JsonNode> found = new LinkedHashMap<>();
    firstPage.forEach(s -> found.put(key(s), s));
    long cursor = up ? Math.max(firstId, lastId) + 1 : Math.min(firstId, lastId) - 1;
    int calls = 0;
    long idsAsked = 0;
    long stagesBefore = stages(found.values());
    for (int round = 0; round <= EXTRA_ROUNDS; round++) {
      long shortfall = Math.max(1, count - stages(found.values()));
      // The first guess takes the ids as dense; a further round scales by how dense they were.
      double density = idsAsked == 0 ? 1
          : Math.max(MIN_DENSITY, (stages(found.values()) - stagesBefore) / (double) idsAsked);
      long wanted = (long) Math.ceil(shortfall / density);
      List<List<String>> sets = new ArrayList<>();
      for (long asked = 0; asked < wanted && cursor >= 0; ) {
        List<String> set = new ArrayList<>(IDS_PER_CALL);
        while (set.size() < IDS_PER_CALL && asked < wanted && cursor >= 0) {
          set.add(Long.toString(cursor));
          cursor += up ? 1 : -1;
          asked++;
        }
        idsAsked += set.size();
        sets.add(set);
      }
      if (sets.isEmpty()) {
        break; // counted down to stage 0
      }
      List<List<JsonNode>> answers;
      try {
        answers = fan.run(sets.stream().<Callable<List<JsonNode>>>map(set -> () -> api.page(parent, Optional.of(appId),
            METHOD, ITEMS, params, Map.of("stageIds", set), maxItems).items()).toList());
      } catch (InvalidRequestException e) {
        LOG.debug("{} rejected the stageIds filter; following the page tokens instead", parent, e);
        return Optional.empty();
      }
      calls += sets.size();
      boolean any = false;
      for (int i = 0; i < sets.size(); i++) {
        Set<String> asked = new HashSet<>(sets.get(i));
        for (JsonNode s : answers.get(i)) {
          if (!asked.contains(Long.toString(DataprocModel.num(s, "stageId")))) {
            LOG.debug("{} answered a stageIds filter with other stages; following the page tokens instead", parent);
            return Optional.empty();
          }
          found.put(key(s), s);
          any = true;
        }
      }
      if (found.size() > maxItems) {
        return Optional.empty();
      }
      if (found.size() == count || stages(found.values()) == count) {
        return Optional.of(new SparkApplicationsClient.Paged(new ArrayList<>(found.values()), false, 1 + calls));
      }
      if (!any || stages(found.values()) > count) {
        break; // nothing more where the ids go on, or more than counted: the count moved
      }
    }
    LOG.debug("{}: the stages found by id do not match summarizeStages' count {}; following the page tokens instead",
        parent, count);
    return Optional.empty();
  }

  /** How many distinct stages the attempts are of (the count may be of either: either agreeing is enough). */
  private static long stages(java.util.Collection<JsonNode> attempts) {
    return attempts.stream().mapToLong(s -> DataprocModel.num(s, "stageId")).distinct().count();
  }

  /** The token chain from the first page on, as for a batch. */
  private SparkApplicationsClient.Paged chain(List<JsonNode> firstPage, String next, int pages) {
    if (next.isEmpty()) {
      return new SparkApplicationsClient.Paged(firstPage.subList(0, Math.min(firstPage.size(), maxItems)),
          firstPage.size() > maxItems, pages);
    }
    if (firstPage.size() >= maxItems) {
      return new SparkApplicationsClient.Paged(firstPage.subList(0, maxItems), true, pages);
    }
    Map<String, String> rest = new LinkedHashMap<>(params);
    rest.put("pageSize", Integer.toString(SparkApplicationsClient.MAX_PAGE_SIZE));
    rest.put("pageToken", next);
    SparkApplicationsClient.Paged tail = api.page(parent, Optional.of(appId), METHOD, ITEMS, rest,
        maxItems - firstPage.size());
    List<JsonNode> all = new ArrayList<>(firstPage);
    all.addAll(tail.items());
    return new SparkApplicationsClient.Paged(all, tail.truncated(), pages + tail.pages());
  }

  private static String key(JsonNode s) {
    return DataprocModel.num(s, "stageId") + "." + DataprocModel.num(s, "stageAttemptId");
  }
}
