package io.sparkrca.gcp.dataproc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The filter's own terms: every value a workload brings is one quoted string, whatever it holds. */
class CloudLoggingReaderTest {
  private static WorkloadRecord record(DataprocWorkload w) {
    return new WorkloadRecord(w, "BatchController.GetBatch(" + w.parent() + ")", "FAILED", "", Optional.empty(),
        Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), List.of(), Map.of(),
        List.of(), Optional.empty(), List.of());
  }

  @Test
  void quotesAndBackslashesInAValueAreEscapedSoTheyCannotEndTheString() {
    assertThat(CloudLoggingReader.quote("b-1")).isEqualTo("\"b-1\"");
    assertThat(CloudLoggingReader.quote("a\"b\\c")).isEqualTo("\"a\\\"b\\\\c\"");
    assertThat(CloudLoggingReader.quote("ends with \\")).as("a trailing backslash cannot escape the closing quote")
        .isEqualTo("\"ends with \\\\\"");
  }

  @Test
  void anIdThatTriesToAddTermsStaysInsideItsString() {
    // An id taken from a URI as written: dataproc:batches/<id> accepts anything but '/' and '?'.
    String id = "b-1\" OR resource.type=\"gce_instance";
    DataprocWorkload w = new DataprocWorkload(DataprocWorkload.Type.BATCH, "p", "us-central1", id);

    String f = CloudLoggingReader.baseFilter(record(w));

    assertThat(f).contains("resource.labels.batch_id=\"b-1\\\" OR resource.type=\\\"gce_instance\"",
        "resource.labels.location=\"us-central1\"");
    String outsideStrings = f.replace("\\\\", "").replace("\\\"", "").replaceAll("\"[^\"]*\"", "S");
    assertThat(outsideStrings).as("outside the strings, no term of the id's").doesNotContain("\"", "gce_instance")
        .startsWith("resource.type=S AND resource.labels.batch_id=S AND resource.labels.location=S AND logName=(S OR");
  }

  @Test
  void eachResourceTypeIsConstrainedByTheLabelThatCarriesItsRegion() {
    for (DataprocWorkload.Type t : DataprocWorkload.Type.values()) {
      String f = CloudLoggingReader.baseFilter(record(new DataprocWorkload(t, "p", "asia-south1", "w-1")));
      assertThat(f).contains("resource.type=\"" + t.resourceType() + "\"", "resource.labels." + t.idLabel() + "=\"w-1\"",
          "resource.labels." + t.regionLabel() + "=\"asia-south1\"");
    }
    assertThat(DataprocWorkload.Type.BATCH.regionLabel()).isEqualTo("location");
    assertThat(DataprocWorkload.Type.SESSION.regionLabel()).isEqualTo("location");
    assertThat(DataprocWorkload.Type.JOB.regionLabel()).isEqualTo("region");
  }
}
