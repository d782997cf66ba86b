package io.sparkrca.core.eventlog.replay;


import io.sparkrca.core.api.RestRouter;
import io.sparkrca.core.eventlog.EventLogs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Development aid: compares our answers with History Server answers dumped outside the project.
 * run by hand with {@code <logDir>=<answersDir>[,...]} (a program, not a test); answersDir holds {@code <appId>/sql.json}
 * ({@code /sql?length=100000}), {@code sql-<id>.json} and {@code sql-nodetails.json}
 * ({@code ?details=false&planDescription=false&offset=1&length=2}). 
 */
final class SqlDevShsCompare {
  private SqlDevShsCompare() {}

  /** Arguments: {@code <logDir>=<answersDir>[,...]}. Exits 1 on differences. */
  public static void main(String[] args) throws Exception {
    String prop = args[0];
    List<String> problems = new ArrayList<>();
    int compared = 0;
    for (String pair : prop.split(",")) {
      String[] f = pair.split("=");
      RestRouter router = RestRouter.over(EventLogs.reader().build().history(f[0]));
      List<Path> apps;
      try (Stream<Path> s = Files.list(Path.of(f[1]))) {
        apps = s.filter(Files::isDirectory).sorted().toList();
      }
      for (Path app : apps) {
        String id = app.getFileName().toString();
        List<Path> files;
        try (Stream<Path> s = Files.list(app)) {
          files = s.sorted().toList();
        }
        for (Path file : files) {
          String name = file.getFileName().toString();
          String path = SqlShsComparison.restPath(id, name);
          compared++;
          for (String d : SqlShsComparison.compare(router, path, SqlShsComparison.JSON.readTree(file.toFile()))) {
            problems.add(f[1] + " " + path + " " + d);
          }
        }
      }
    }
    problems.forEach(System.out::println);
    System.out.println("compared " + compared + " answers, " + problems.size() + " differences");
    if (!problems.isEmpty()) {
      System.exit(1);
    }
  }
}
