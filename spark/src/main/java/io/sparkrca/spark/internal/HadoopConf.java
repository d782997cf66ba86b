package io.sparkrca.spark.internal;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import org.apache.hadoop.conf.Configuration;

/**
 * A Hadoop {@link Configuration} that travels to executors (it is {@code Writable}, not {@code
 * Serializable}), so that they read logs with the driver's file-system settings and credentials.
 */
public final class HadoopConf implements Serializable {
  private static final long serialVersionUID = 1L;
  private transient Configuration conf;

  public HadoopConf(Configuration conf) {
    this.conf = new Configuration(conf);
  }

  public Configuration get() {
    return conf;
  }

  private void writeObject(ObjectOutputStream out) throws IOException {
    out.defaultWriteObject();
    conf.write(out);
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    conf = new Configuration(false);
    conf.readFields(in);
  }
}
