package io.sparkrca.inspector;

import java.util.HashMap;
import java.util.Map;

/**
 * Raw bytecode facts ASM does not expose: instruction byte offsets and the opcodes exactly as
 * written ({@code aload_0} rather than {@code aload 0}, {@code ldc_w}, {@code goto_w}), found by
 * walking the class file's Code attributes.
 */
final class Bytecode {
  private Bytecode() {}

  static final String[] MNEMONICS = (
      "nop aconst_null iconst_m1 iconst_0 iconst_1 iconst_2 iconst_3 iconst_4 iconst_5 lconst_0 "
          + "lconst_1 fconst_0 fconst_1 fconst_2 dconst_0 dconst_1 bipush sipush ldc ldc_w ldc2_w "
          + "iload lload fload dload aload iload_0 iload_1 iload_2 iload_3 lload_0 lload_1 "
          + "lload_2 lload_3 fload_0 fload_1 fload_2 fload_3 dload_0 dload_1 dload_2 dload_3 "
          + "aload_0 aload_1 aload_2 aload_3 iaload laload faload daload aaload baload caload "
          + "saload istore lstore fstore dstore astore istore_0 istore_1 istore_2 istore_3 "
          + "lstore_0 lstore_1 lstore_2 lstore_3 fstore_0 fstore_1 fstore_2 fstore_3 dstore_0 "
          + "dstore_1 dstore_2 dstore_3 astore_0 astore_1 astore_2 astore_3 iastore lastore "
          + "fastore dastore aastore bastore castore sastore pop pop2 dup dup_x1 dup_x2 dup2 "
          + "dup2_x1 dup2_x2 swap iadd ladd fadd dadd isub lsub fsub dsub imul lmul fmul dmul "
          + "idiv ldiv fdiv ddiv irem lrem frem drem ineg lneg fneg dneg ishl lshl ishr lshr "
          + "iushr lushr iand land ior lor ixor lxor iinc i2l i2f i2d l2i l2f l2d f2i f2l f2d "
          + "d2i d2l d2f i2b i2c i2s lcmp fcmpl fcmpg dcmpl dcmpg ifeq ifne iflt ifge ifgt ifle "
          + "if_icmpeq if_icmpne if_icmplt if_icmpge if_icmpgt if_icmple if_acmpeq if_acmpne goto "
          + "jsr ret tableswitch lookupswitch ireturn lreturn freturn dreturn areturn return "
          + "getstatic putstatic getfield putfield invokevirtual invokespecial invokestatic "
          + "invokeinterface invokedynamic new newarray anewarray arraylength athrow checkcast "
          + "instanceof monitorenter monitorexit wide multianewarray ifnull ifnonnull goto_w jsr_w")
      .split(" ");

  static String mnemonic(int opcode) {
    return opcode >= 0 && opcode < MNEMONICS.length ? MNEMONICS[opcode] : "opcode_" + opcode;
  }

  /** The offsets and raw opcodes of one method's instructions. */
  record Code(int[] offsets, int[] opcodes, int length) {}

  /**
   * The Code attributes of every method, keyed by {@code name + descriptor}. A malformed class
   * gives what could be read before the damage.
   */
  static Map<String, Code> codes(byte[] b) {
    Map<String, Code> out = new HashMap<>();
    try {
      Reader r = new Reader(b);
      r.pos = 8;
      int cpCount = r.u2();
      int[] utf8Offsets = new int[cpCount];
      for (int i = 1; i < cpCount; i++) {
        int tag = r.u1();
        switch (tag) {
          case 1 -> {
            utf8Offsets[i] = r.pos;
            int len = r.u2();
            r.pos += len;
          }
          case 3, 4, 9, 10, 11, 12, 17, 18 -> r.pos += 4;
          case 5, 6 -> {
            r.pos += 8;
            i++;
          }
          case 7, 8, 16, 19, 20 -> r.pos += 2;
          case 15 -> r.pos += 3;
          default -> {
            return out;
          }
        }
      }
      r.pos += 6; // access, this, super
      int interfaces = r.u2();
      r.pos += 2 * interfaces;
      int fields = r.u2();
      for (int f = 0; f < fields; f++) {
        r.pos += 6;
        int attrs = r.u2();
        for (int a = 0; a < attrs; a++) {
          r.pos += 2;
          int len = r.u4();
          r.pos += len;
        }
      }
      int methods = r.u2();
      for (int m = 0; m < methods; m++) {
        r.pos += 2;
        String name = r.utf8(utf8Offsets, r.u2());
        String desc = r.utf8(utf8Offsets, r.u2());
        int attrs = r.u2();
        for (int a = 0; a < attrs; a++) {
          String attrName = r.utf8(utf8Offsets, r.u2());
          int len = r.u4();
          int start = r.pos;
          if ("Code".equals(attrName) && len >= 8) {
            int codeLen = r.at4(start + 4);
            int codeStart = start + 8;
            if (codeLen > 0 && codeStart + codeLen <= b.length) {
              Code c = scan(b, codeStart, codeLen);
              if (c != null) {
                out.put(name + desc, c);
              }
            }
          }
          r.pos = start + len;
        }
      }
    } catch (RuntimeException e) {
      // Damaged: keep the methods read so far.
    }
    return out;
  }

  private static Code scan(byte[] b, int start, int len) {
    int[] offsets = new int[Math.min(len, 1 << 16)];
    int[] ops = new int[offsets.length];
    int n = 0;
    int pc = 0;
    while (pc < len) {
      int op = b[start + pc] & 0xFF;
      offsets[n] = pc;
      ops[n] = op;
      n++;
      int size = size(b, start, pc, op);
      if (size <= 0) {
        return null;
      }
      pc += size;
    }
    if (pc != len) {
      return null;
    }
    return new Code(java.util.Arrays.copyOf(offsets, n), java.util.Arrays.copyOf(ops, n), len);
  }

  private static int size(byte[] b, int start, int pc, int op) {
    switch (op) {
      case 16, 18, 21, 22, 23, 24, 25, 54, 55, 56, 57, 58, 169, 188:
        return 2;
      case 17, 19, 20, 132, 178, 179, 180, 181, 182, 183, 184, 187, 189, 192, 193, 198, 199:
        return 3;
      case 185, 186, 200, 201:
        return 5;
      case 197:
        return 4;
      case 196: // wide
        return (b[start + pc + 1] & 0xFF) == 132 ? 6 : 4;
      case 170: { // tableswitch
        int p = pc + 1 + ((4 - (pc + 1) % 4) % 4);
        int low = int4(b, start + p + 4);
        int high = int4(b, start + p + 8);
        long count = (long) high - low + 1;
        if (count < 0 || count > 65536) {
          return -1;
        }
        return (int) (p - pc + 12 + 4 * count);
      }
      case 171: { // lookupswitch
        int p = pc + 1 + ((4 - (pc + 1) % 4) % 4);
        int pairs = int4(b, start + p + 4);
        if (pairs < 0 || pairs > 65536) {
          return -1;
        }
        return p - pc + 8 + 8 * pairs;
      }
      default:
        if (op >= 153 && op <= 168) {
          return 3;
        }
        return op > 201 ? -1 : 1;
    }
  }

  private static int int4(byte[] b, int at) {
    return ((b[at] & 0xFF) << 24) | ((b[at + 1] & 0xFF) << 16) | ((b[at + 2] & 0xFF) << 8)
        | (b[at + 3] & 0xFF);
  }

  private static final class Reader {
    final byte[] b;
    int pos;

    Reader(byte[] b) {
      this.b = b;
    }

    int u1() {
      return b[pos++] & 0xFF;
    }

    int u2() {
      int v = ((b[pos] & 0xFF) << 8) | (b[pos + 1] & 0xFF);
      pos += 2;
      return v;
    }

    int u4() {
      int v = int4(b, pos);
      pos += 4;
      return v;
    }

    int at4(int at) {
      return int4(b, at);
    }

    String utf8(int[] offsets, int index) {
      if (index <= 0 || index >= offsets.length || offsets[index] == 0) {
        return "";
      }
      int at = offsets[index];
      int len = ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
      return ModifiedUtf8.decode(b, at + 2, len);
    }
  }

  /** Modified UTF-8 (JVMS 4.4.7), as class files store text; malformed bytes become U+FFFD. */
  static final class ModifiedUtf8 {
    private ModifiedUtf8() {}

    static String decode(byte[] b, int off, int len) {
      int end = Math.min(b.length, off + len);
      StringBuilder s = new StringBuilder(len);
      int i = off;
      while (i < end) {
        int c = b[i] & 0xFF;
        if (c < 0x80 && c != 0) {
          s.append((char) c);
          i++;
        } else if ((c & 0xE0) == 0xC0 && i + 1 < end) {
          s.append((char) (((c & 0x1F) << 6) | (b[i + 1] & 0x3F)));
          i += 2;
        } else if ((c & 0xF0) == 0xE0 && i + 2 < end) {
          s.append((char) (((c & 0x0F) << 12) | ((b[i + 1] & 0x3F) << 6) | (b[i + 2] & 0x3F)));
          i += 3;
        } else {
          s.append('\uFFFD');
          i++;
        }
      }
      return s.toString();
    }
  }

  /** The Java release of a class-file major version: 52 is Java 8, 61 is Java 17. */
  static String javaRelease(int major) {
    if (major >= 49) {
      return "Java " + (major - 44);
    }
    return switch (major) {
      case 45 -> "Java 1.1";
      case 46 -> "Java 1.2";
      case 47 -> "Java 1.3";
      case 48 -> "Java 1.4";
      default -> "unknown (major " + major + ")";
    };
  }
}
