package io.sparkrca.rules;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import com.google.protobuf.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds and reads {@link DataprocSchema} messages by field name. Builders leave a scalar with
 * implicit presence unset when it is 0, "" or false, so that {@code has()} follows proto3.
 */
final class Messages {
  private Messages() {}

  static B of(String type) {
    return new B(DataprocSchema.message(type), null);
  }

  /** A builder whose scalar map entries come from {@code entries} (see {@link EntryCache}). */
  static B of(String type, EntryCache entries) {
    return new B(DataprocSchema.message(type), entries);
  }

  static Message empty(String type) {
    return DynamicMessage.getDefaultInstance(DataprocSchema.message(type));
  }

  /**
   * Map entries with a scalar key and value, shared by the messages of one mapping: messages are
   * immutable, and an application's executor metrics repeat the same (name, value) pairs over and
   * over (a 984-stage log with 48 executors has 1.2 million metric entries, 68,000 of them
   * distinct). Holds at most {@value #MAX_ENTRIES} entries; later ones are built unshared.
   */
  static final class EntryCache {
    static final int MAX_ENTRIES = 1 << 20;
    private final Map<EntryKey, Message> entries = new java.util.HashMap<>();

    private record EntryKey(Descriptor type, Object key, Object value) {}

    Message entry(Descriptor type, FieldDescriptor key, FieldDescriptor value, Object k, Object v) {
      EntryKey id = new EntryKey(type, k, v);
      Message m = entries.get(id);
      if (m == null) {
        m = DynamicMessage.newBuilder(type).setField(key, k).setField(value, v).build();
        if (entries.size() < MAX_ENTRIES) {
          entries.put(id, m);
        }
      }
      return m;
    }
  }

  /** A fluent builder of one message. */
  static final class B {
    private final Descriptor d;
    private final DynamicMessage.Builder b;
    private final EntryCache entries;

    B(Descriptor d, EntryCache entries) {
      this.d = d;
      this.b = DynamicMessage.newBuilder(d);
      this.entries = entries;
    }

    private FieldDescriptor f(String name) {
      return DataprocSchema.field(d, name);
    }

    B i64(String name, long v) {
      FieldDescriptor f = f(name);
      if (v != 0 || f.hasPresence()) {
        b.setField(f, v);
      }
      return this;
    }

    B i32(String name, long v) {
      FieldDescriptor f = f(name);
      int x = (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
      if (x != 0 || f.hasPresence()) {
        b.setField(f, x);
      }
      return this;
    }

    B bool(String name, boolean v) {
      if (v) {
        b.setField(f(name), true);
      }
      return this;
    }

    B str(String name, String v) {
      FieldDescriptor f = f(name);
      if (v != null && (!v.isEmpty() || f.hasPresence())) {
        b.setField(f, v);
      }
      return this;
    }

    B str(String name, Optional<String> v) {
      v.ifPresent(x -> str(name, x));
      return this;
    }

    B time(String name, Optional<Instant> v) {
      v.ifPresent(
          i ->
              b.setField(
                  f(name),
                  Timestamp.newBuilder().setSeconds(i.getEpochSecond()).setNanos(i.getNano()).build()));
      return this;
    }

    B msg(String name, Message m) {
      b.setField(f(name), m);
      return this;
    }

    B msg(String name, Optional<? extends Message> m) {
      m.ifPresent(x -> msg(name, x));
      return this;
    }

    B enumValue(String name, int number) {
      FieldDescriptor f = f(name);
      if (number != 0) {
        b.setField(f, f.getEnumType().findValueByNumber(number));
      }
      return this;
    }

    B ints64(String name, List<? extends Number> values) {
      FieldDescriptor f = f(name);
      for (Number n : values) {
        b.addRepeatedField(f, n.longValue());
      }
      return this;
    }

    B doubles(String name, List<Double> values) {
      FieldDescriptor f = f(name);
      for (Double v : values) {
        b.addRepeatedField(f, v);
      }
      return this;
    }

    B messages(String name, List<? extends Message> values) {
      FieldDescriptor f = f(name);
      for (Message m : values) {
        b.addRepeatedField(f, m);
      }
      return this;
    }

    /** A map field: keys are strings (or longs for {@code tasks}), values as the field wants. */
    B map(String name, Map<?, ?> values) {
      FieldDescriptor f = f(name);
      Descriptor entry = f.getMessageType();
      FieldDescriptor key = DataprocSchema.field(entry, "key");
      FieldDescriptor value = DataprocSchema.field(entry, "value");
      boolean shared = entries != null && value.getJavaType() != FieldDescriptor.JavaType.MESSAGE;
      values.forEach(
          (k, v) -> {
            Object val = v;
            if (value.getJavaType() == FieldDescriptor.JavaType.INT && v instanceof Number n) {
              val = n.intValue();
            } else if (value.getJavaType() == FieldDescriptor.JavaType.LONG && v instanceof Number n) {
              val = n.longValue();
            }
            b.addRepeatedField(f, shared ? entries.entry(entry, key, value, k, val)
                : DynamicMessage.newBuilder(entry).setField(key, k).setField(value, val).build());
          });
      return this;
    }

    Message build() {
      return b.build();
    }
  }

  // ------------------------------------------------------------------ reading

  /** The value at a snake_case path of nested messages; a default message or 0 when unset. */
  static Object get(Message m, String... path) {
    Object cur = m;
    for (String p : path) {
      Message msg = (Message) cur;
      cur = msg.getField(DataprocSchema.field(msg.getDescriptorForType(), p));
    }
    return cur;
  }

  static long getLong(Message m, String... path) {
    Object v = get(m, path);
    if (v instanceof Number n) {
      return n.longValue();
    }
    if (v instanceof com.google.protobuf.Descriptors.EnumValueDescriptor e) {
      return e.getNumber();
    }
    return 0;
  }

  static boolean has(Message m, String... path) {
    Message cur = m;
    for (int i = 0; i < path.length; i++) {
      FieldDescriptor f = DataprocSchema.field(cur.getDescriptorForType(), path[i]);
      if (f.isRepeated() ? cur.getRepeatedFieldCount(f) == 0 : !cur.hasField(f)) {
        return false;
      }
      if (i < path.length - 1) {
        cur = (Message) cur.getField(f);
      }
    }
    return true;
  }

  static String getString(Message m, String... path) {
    Object v = get(m, path);
    return v instanceof String s ? s : "";
  }
}
