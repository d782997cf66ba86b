package io.sparkrca.inspector;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads as much of a damaged class file as it can: the version, the constant pool up to the
 * damage (unknown tags stop the scan rather than fail it), its string literals and method
 * references, and the class name when the pool got that far.
 */
final class ConstantPoolScanner {
  private static final int MAX_REFS = 200;

  private ConstantPoolScanner() {}

  record Scan(int major, int minor, int constants, boolean complete, Optional<String> thisClass,
      List<String> strings, List<String> methodRefs) {}

  static Scan scan(byte[] b) {
    if (b.length < 10 || (b[0] & 0xFF) != 0xCA || (b[1] & 0xFF) != 0xFE) {
      return new Scan(0, 0, 0, false, Optional.empty(), List.of(), List.of());
    }
    int minor = u2(b, 4);
    int major = u2(b, 6);
    int count = u2(b, 8);
    String[] utf8 = new String[count];
    int[] tags = new int[count];
    int[] ref1 = new int[count];
    int[] ref2 = new int[count];
    int pos = 10;
    int read = 0;
    boolean complete = true;
    for (int i = 1; i < count; i++) {
      if (pos >= b.length) {
        complete = false;
        break;
      }
      int tag = b[pos] & 0xFF;
      int size = switch (tag) {
        case 1 -> pos + 3 <= b.length ? 3 + u2(b, pos + 1) : -1;
        case 3, 4, 9, 10, 11, 12, 17, 18 -> 5;
        case 5, 6 -> 9;
        case 7, 8, 16, 19, 20 -> 3;
        case 15 -> 4;
        default -> -1;
      };
      if (size < 0 || pos + size > b.length) {
        complete = false;
        break;
      }
      tags[i] = tag;
      if (tag == 1) {
        utf8[i] = Bytecode.ModifiedUtf8.decode(b, pos + 3, size - 3);
      } else if (size >= 3) {
        ref1[i] = u2(b, pos + 1);
        if (size >= 5) {
          ref2[i] = u2(b, pos + 3);
        }
      }
      pos += size;
      read = i;
      if (tag == 5 || tag == 6) {
        i++;
      }
    }
    List<String> strings = new ArrayList<>();
    List<String> refs = new ArrayList<>();
    for (int i = 1; i <= read && i < count; i++) {
      if (tags[i] == 8) {
        String s = at(utf8, ref1[i]);
        if (s != null) {
          strings.add(s);
        }
      } else if ((tags[i] == 10 || tags[i] == 11) && refs.size() < MAX_REFS) {
        String owner = className(utf8, tags, ref1, ref1[i]);
        int nat = ref2[i];
        if (owner != null && nat > 0 && nat < count && tags[nat] == 12) {
          String name = at(utf8, ref1[nat]);
          String desc = at(utf8, ref2[nat]);
          if (name != null && desc != null) {
            refs.add(Signatures.methodRef(owner, name, desc));
          }
        }
      }
    }
    Optional<String> thisClass = Optional.empty();
    if (complete && pos + 4 <= b.length) {
      thisClass = Optional.ofNullable(className(utf8, tags, ref1, u2(b, pos + 2)));
    }
    return new Scan(major, minor, read, complete, thisClass, strings, refs);
  }

  private static String className(String[] utf8, int[] tags, int[] ref1, int idx) {
    if (idx <= 0 || idx >= tags.length || tags[idx] != 7) {
      return null;
    }
    return at(utf8, ref1[idx]);
  }

  private static String at(String[] utf8, int idx) {
    return idx > 0 && idx < utf8.length ? utf8[idx] : null;
  }

  private static int u2(byte[] b, int at) {
    return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
  }
}
