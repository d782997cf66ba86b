package io.sparkrca.gcp.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The active gcloud configuration ({@code <config dir>/configurations/config_<active>}, an INI
 * file), read the way gcloud reads it; missing or unreadable files are simply empty.
 */
public final class GcloudConfig {
  private final Map<String, String> values;

  private GcloudConfig(Map<String, String> values) {
    this.values = Map.copyOf(values);
  }

  /** {@code CLOUDSDK_CONFIG}, else {@code ~/.config/gcloud} (or {@code %APPDATA%\gcloud} on Windows). */
  public static Path defaultDir(Map<String, String> env) {
    String dir = env.get("CLOUDSDK_CONFIG");
    if (dir != null && !dir.isBlank()) {
      return Path.of(dir);
    }
    String appData = env.get("APPDATA");
    if (appData != null && System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows")) {
      return Path.of(appData, "gcloud");
    }
    return Path.of(System.getProperty("user.home", "."), ".config", "gcloud");
  }

  /** The active configuration under {@code dir}. */
  public static GcloudConfig read(Path dir) {
    String active = "default";
    try {
      Path a = dir.resolve("active_config");
      if (Files.isRegularFile(a)) {
        String name = Files.readString(a, StandardCharsets.UTF_8).trim();
        if (!name.isEmpty()) {
          active = name;
        }
      }
      Path file = dir.resolve("configurations").resolve("config_" + active);
      if (!Files.isRegularFile(file) || Files.size(file) > 1 << 20) {
        return new GcloudConfig(Map.of());
      }
      return new GcloudConfig(parse(Files.readAllLines(file, StandardCharsets.UTF_8)));
    } catch (IOException | RuntimeException e) {
      return new GcloudConfig(Map.of());
    }
  }

  static Map<String, String> parse(List<String> lines) {
    Map<String, String> out = new HashMap<>();
    String section = "";
    for (String raw : lines) {
      String line = raw.trim();
      if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
        continue;
      }
      if (line.startsWith("[") && line.endsWith("]")) {
        section = line.substring(1, line.length() - 1).trim().toLowerCase(Locale.ROOT);
        continue;
      }
      int eq = line.indexOf('=');
      if (eq > 0) {
        out.put(section + "/" + line.substring(0, eq).trim().toLowerCase(Locale.ROOT), line.substring(eq + 1).trim());
      }
    }
    return out;
  }

  /** The value of {@code key} in {@code [section]}, when set and not empty. */
  public Optional<String> get(String section, String key) {
    String v = values.get(section + "/" + key);
    return v == null || v.isEmpty() ? Optional.empty() : Optional.of(v);
  }
}
