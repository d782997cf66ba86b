package io.sparkrca.inspector;

import io.sparkrca.core.error.CorruptInputException;
import io.sparkrca.core.error.UnsupportedInputException;
import io.sparkrca.core.io.ByteSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * A ZIP/JAR archive read by ranged reads: the end record and the central directory first, then
 * only the entries asked for. No entry is inflated past the caps of the {@link ReadContext}, and
 * nothing is extracted to disk but a compressed nested archive too big for memory, which goes to
 * a private temporary file that the context deletes. Handles ZIP64 and archives with bytes
 * prepended (executable jars with a launch script).
 */
final class ZipArchive {
  private static final int EOCD_SIG = 0x06054b50;
  private static final int ZIP64_EOCD_SIG = 0x06064b50;
  private static final int ZIP64_LOCATOR_SIG = 0x07064b50;
  private static final int CEN_SIG = 0x02014b50;
  private static final int LOC_SIG = 0x04034b50;
  private static final int CEN_CHUNK = 1 << 20;
  private static final long RATIO_GRACE = 1 << 20;
  /** Central directories up to this size are always read whole, even when sampling is allowed. */
  static final long SAMPLE_MIN_DIRECTORY = 1 << 20;
  private static final long SAMPLE_WINDOW_TARGET = 256 << 10;
  private static final int SAMPLE_MIN_WINDOWS = 4;
  private static final int SAMPLE_MAX_WINDOWS = 32;

  final ByteSource source;
  final long size;
  final long prefixBytes;
  final boolean zip64;
  final long declaredEntries;
  final long centralDirectoryBytes;
  final List<ZipEntryInfo> entries;
  final List<String> notes;
  /** Present when only evenly spaced windows of the central directory were read. */
  final Optional<Sample> sample;
  private final Map<String, ZipEntryInfo> byName;
  private final ReadContext ctx;

  private ZipArchive(ByteSource source, long size, long prefixBytes, boolean zip64,
      long declaredEntries, long cdBytes, List<ZipEntryInfo> entries, List<String> notes,
      Optional<Sample> sample, ReadContext ctx) {
    this.source = source;
    this.size = size;
    this.prefixBytes = prefixBytes;
    this.zip64 = zip64;
    this.declaredEntries = declaredEntries;
    this.centralDirectoryBytes = cdBytes;
    this.entries = Collections.unmodifiableList(entries);
    this.notes = List.copyOf(notes);
    this.sample = sample;
    this.ctx = ctx;
    Map<String, ZipEntryInfo> map = new HashMap<>(entries.size() * 2);
    for (ZipEntryInfo e : entries) {
      map.putIfAbsent(e.name(), e); // the JVM and java.util.zip use the first of duplicates
    }
    this.byName = map;
  }

  String name() {
    return source.name();
  }

  Optional<ZipEntryInfo> get(String name) {
    return Optional.ofNullable(byName.get(name));
  }

  /** Whether the bytes look like the start of a ZIP (local header, or an empty archive). */
  static boolean hasZipMagic(byte[] head) {
    return head.length >= 4 && head[0] == 'P' && head[1] == 'K'
        && ((head[2] == 3 && head[3] == 4) || (head[2] == 5 && head[3] == 6)
            || (head[2] == 7 && head[3] == 8));
  }

  /**
   * A central directory read in evenly spaced windows instead of whole: which entries came from
   * which window, and which bytes of the directory those entries cover.
   *
   * @param entryBytes the bytes before the central directory (local headers and entry data),
   *     without any prepended bytes
   * @param directoryBytes the central directory's size
   * @param bytesRead the directory bytes fetched (the sum of the windows)
   * @param windows the windows in directory order
   */
  record Sample(long entryBytes, long directoryBytes, long bytesRead, List<Window> windows) {
    Sample {
      windows = List.copyOf(windows);
    }

    /** The directory bytes covered by complete records. */
    long parsedBytes() {
      long n = 0;
      for (Window w : windows) {
        n += w.parsedEnd() - w.parsedStart();
      }
      return n;
    }
  }

  /**
   * One window of a sampled central directory.
   *
   * @param firstEntry the index (in {@link #entries}) of its first complete record
   * @param endEntry one past the index of its last complete record
   * @param parsedStart the directory offset where its first complete record starts
   * @param parsedEnd the directory offset where its last complete record ends
   */
  record Window(int firstEntry, int endEntry, long parsedStart, long parsedEnd) {}

  /** Reads the end record and the whole central directory of {@code source}. */
  static ZipArchive open(ByteSource source, ReadContext ctx) throws IOException {
    return open(source, ctx, 0);
  }

  /**
   * Reads the end record and the central directory of {@code source}; when {@code sampleFraction}
   * is positive and the directory is over {@link #SAMPLE_MIN_DIRECTORY} and over that fraction of
   * the archive, only evenly spaced windows totalling that fraction of the archive are read (the
   * first at the directory's start, the last at its end) and {@link #sample} says so.
   */
  static ZipArchive open(ByteSource source, ReadContext ctx, double sampleFraction)
      throws IOException {
    String name = source.name();
    long size = source.size().orElseThrow(() -> new UnsupportedInputException(
        name + ": the source cannot tell its size, so its ZIP central directory cannot be found "
            + "by ranged reads; copy the archive somewhere that can (a local file, gs://, https)"));
    if (size < 22) {
      throw notZip(source, size, "it is only " + size + " bytes long");
    }
    // Most archives have no comment: try a small tail first, then the largest possible one.
    byte[] tail = source.read(size - Math.min(size, 1024), (int) Math.min(size, 1024));
    long tailStart = size - tail.length;
    int eocd = findEocd(tail);
    if (eocd < 0 && size > 1024) {
      int len = (int) Math.min(size, 22 + 0xFFFF);
      tail = source.read(size - len, len);
      tailStart = size - tail.length;
      eocd = findEocd(tail);
    }
    if (eocd < 0) {
      throw notZip(source, size, "it has no ZIP end-of-central-directory record");
    }
    ByteBuffer b = ByteBuffer.wrap(tail).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    int disk = u16(b, eocd + 4);
    int cdDisk = u16(b, eocd + 6);
    long entries = u16(b, eocd + 10);
    long cdSize = u32(b, eocd + 12);
    long cdOffset = u32(b, eocd + 16);
    long eocdPos = tailStart + eocd;
    long cdEnd = eocdPos; // where the central directory should end, before any prefix shift
    boolean zip64 = false;
    List<String> notes = new ArrayList<>();
    if (entries == 0xFFFF || cdSize == 0xFFFFFFFFL || cdOffset == 0xFFFFFFFFL
        || hasLocator(tail, eocd)) {
      if (eocd >= 20 && b.getInt(eocd - 20) == ZIP64_LOCATOR_SIG) {
        long z64Offset = b.getLong(eocd - 20 + 8);
        long z64Pos = eocdPos - 20 - 56; // the record's usual place, without extensible data
        byte[] rec = source.read(Math.max(0, z64Pos), 56);
        ByteBuffer z = ByteBuffer.wrap(rec).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        if (rec.length < 56 || z.getInt(0) != ZIP64_EOCD_SIG) {
          // Not where expected: trust the locator's offset (no prefix then).
          rec = source.read(z64Offset, 56);
          z = ByteBuffer.wrap(rec).order(java.nio.ByteOrder.LITTLE_ENDIAN);
          z64Pos = z64Offset;
          if (rec.length < 56 || z.getInt(0) != ZIP64_EOCD_SIG) {
            throw new CorruptInputException(name + ": its ZIP64 end record is missing or damaged; "
                + "the archive is truncated or corrupt, so copy it again");
          }
        }
        zip64 = true;
        disk = z.getInt(16);
        cdDisk = z.getInt(20);
        entries = z.getLong(32);
        cdSize = z.getLong(40);
        cdOffset = z.getLong(48);
        cdEnd = z64Pos;
      } else if (entries == 0xFFFF || cdSize == 0xFFFFFFFFL || cdOffset == 0xFFFFFFFFL) {
        notes.add("the end record has ZIP64 markers but no ZIP64 locator; read as a plain ZIP");
      }
    }
    if (disk != 0 || cdDisk != 0) {
      throw new UnsupportedInputException(name + ": a multi-volume (split) ZIP archive; join the "
          + "parts into one file first");
    }
    if (cdSize < 0 || cdOffset < 0 || entries < 0) {
      throw new CorruptInputException(name + ": its ZIP end record holds negative sizes; the "
          + "archive is corrupt");
    }
    long prefix = cdEnd - cdSize - cdOffset;
    if (prefix < 0 || cdOffset + prefix + cdSize > size) {
      throw new CorruptInputException(name + ": its central directory ("
          + Texts.bytes(cdSize) + " at offset " + cdOffset + ") lies outside the "
          + Texts.bytes(size) + " file; the archive is truncated, so copy it again");
    }
    if (prefix > 0) {
      notes.add(Texts.count(prefix) + " bytes precede the archive (a launch script or "
          + "self-extractor stub); offsets were shifted past them");
    }
    if (cdSize > ctx.limits.maxCentralDirectoryBytes()) {
      throw new CorruptInputException(name + ": its central directory is " + Texts.bytes(cdSize)
          + ", more than the " + Texts.bytes(ctx.limits.maxCentralDirectoryBytes())
          + " cap; this is not a real jar (or raise the limit)");
    }
    long budget = sampleFraction > 0 ? (long) (sampleFraction * size) : 0;
    if (budget > 0 && cdSize > SAMPLE_MIN_DIRECTORY && cdSize > budget) {
      List<ZipEntryInfo> list = new ArrayList<>();
      Sample sample = sampleCentralDirectory(source, cdOffset + prefix, cdSize, budget, prefix,
          ctx.limits.maxEntries(), list, notes);
      checkOverlaps(list, notes);
      return new ZipArchive(source, size, prefix, zip64, entries, cdSize, list, notes,
          Optional.of(sample), ctx);
    }
    List<ZipEntryInfo> list = readCentralDirectory(
        source, cdOffset + prefix, cdSize, entries, prefix, ctx.limits.maxEntries(), notes);
    checkOverlaps(list, notes);
    return new ZipArchive(source, size, prefix, zip64, entries, cdSize, list, notes,
        Optional.empty(), ctx);
  }

  /**
   * Reads {@code budget} bytes of the central directory at {@code [start, start + length)} as
   * evenly spaced windows (one ranged read each): the first starts at the directory's first
   * record, the last ends with its last record, and every other one is re-synchronised on the
   * first offset that holds a record signature followed by another record (or by the window's
   * end). Records cut by a window's edges are dropped.
   */
  private static Sample sampleCentralDirectory(ByteSource source, long start, long length,
      long budget, long prefix, int maxEntries, List<ZipEntryInfo> list, List<String> notes)
      throws IOException {
    int windows = (int) Math.max(SAMPLE_MIN_WINDOWS,
        Math.min(SAMPLE_MAX_WINDOWS, (budget + SAMPLE_WINDOW_TARGET - 1) / SAMPLE_WINDOW_TARGET));
    int width = (int) Math.min(Integer.MAX_VALUE - 16, budget / windows);
    Listing listing = new Listing(list);
    List<Window> out = new ArrayList<>();
    long fetched = 0;
    for (int w = 0; w < windows && list.size() < maxEntries; w++) {
      long from = start + (windows == 1 ? 0 : Math.round((double) w * (length - width) / (windows - 1)));
      byte[] buf = source.read(from, width);
      fetched += buf.length;
      if (buf.length < width) {
        throw new CorruptInputException(source.name() + ": the archive ends inside its central "
            + "directory; it is truncated, so copy it again");
      }
      ByteBuffer b = ByteBuffer.wrap(buf).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      boolean atEnd = from + buf.length == start + length;
      int at = w == 0 ? 0 : resync(b, buf.length, atEnd);
      if (at < 0) {
        continue;
      }
      int first = list.size();
      int parsedFrom = at;
      while (at + 46 <= buf.length && list.size() < maxEntries) {
        if (b.getInt(at) != CEN_SIG) {
          notes.add("the central directory is damaged inside a sampled window (bad record "
              + "signature); the rest of that window is not listed");
          break;
        }
        int recLen = recordLength(b, at);
        if (at + recLen > buf.length) {
          break; // cut by the window's end
        }
        listing.add(b, buf, at, prefix);
        at += recLen;
      }
      if (list.size() > first) {
        out.add(new Window(first, list.size(), from - start + parsedFrom, from - start + at));
      }
    }
    if (list.size() >= maxEntries) {
      notes.add("sampling stopped at the cap of " + Texts.count(maxEntries) + " entries");
    }
    listing.noteNames(notes, "sampled entry", " in the sample");
    return new Sample(start - prefix, length, fetched, out);
  }

  /**
   * The first offset in {@code b} where a complete central-directory record starts that is
   * followed by another record signature or, in the directory's last window, by the window's end;
   * -1 when there is none.
   */
  private static int resync(ByteBuffer b, int limit, boolean atEnd) {
    for (int at = 0; at + 46 <= limit; at++) {
      if (b.getInt(at) != CEN_SIG) {
        continue;
      }
      int next = at + recordLength(b, at);
      if ((next + 4 <= limit && b.getInt(next) == CEN_SIG) || (atEnd && next == limit)) {
        return at;
      }
    }
    return -1;
  }

  private static int recordLength(ByteBuffer b, int at) {
    return 46 + u16(b, at + 28) + u16(b, at + 30) + u16(b, at + 32);
  }

  private static boolean hasLocator(byte[] tail, int eocd) {
    return eocd >= 20 && ByteBuffer.wrap(tail).order(java.nio.ByteOrder.LITTLE_ENDIAN)
        .getInt(eocd - 20) == ZIP64_LOCATOR_SIG;
  }

  private static CorruptInputException notZip(ByteSource source, long size, String why)
      throws IOException {
    byte[] head = source.read(0, (int) Math.min(size, 8));
    String starts = head.length == 0 ? "it is empty" : "it starts with '" + Texts.preview(head) + "'";
    return new CorruptInputException(source.name() + " is not a ZIP/JAR archive: " + why + " ("
        + starts + "); check that the URI names the archive itself, and that it was copied "
        + "completely");
  }

  /** The position of the end record in {@code tail}, searching backwards; -1 when absent. */
  private static int findEocd(byte[] tail) {
    ByteBuffer b = ByteBuffer.wrap(tail).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    int lenient = -1;
    for (int i = tail.length - 22; i >= 0; i--) {
      if (b.getInt(i) == EOCD_SIG) {
        int commentLength = u16(b, i + 20);
        if (i + 22 + commentLength == tail.length) {
          return i;
        }
        if (lenient < 0 && i + 22 + commentLength <= tail.length) {
          lenient = i;
        }
      }
    }
    return lenient;
  }

  private static List<ZipEntryInfo> readCentralDirectory(ByteSource source, long start,
      long length, long declared, long prefix, int maxEntries, List<String> notes)
      throws IOException {
    List<ZipEntryInfo> list = new ArrayList<>((int) Math.min(Math.min(declared, maxEntries), 1 << 16));
    Listing listing = new Listing(list);
    byte[] buf = new byte[0];
    long bufStart = start;
    long pos = start;
    long end = start + length;
    while (pos + 46 <= end) {
      if (list.size() >= maxEntries) {
        notes.add("listing stopped at the cap of " + Texts.count(maxEntries) + " entries ("
            + Texts.count(declared) + " declared); counts cover only the entries listed");
        break;
      }
      // Make sure the fixed part, then the variable part, are buffered.
      if (pos + 46 > bufStart + buf.length) {
        buf = refill(source, buf, bufStart, pos, end, 46);
        bufStart = pos;
      }
      ByteBuffer b = ByteBuffer.wrap(buf).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      int at = (int) (pos - bufStart);
      if (b.getInt(at) != CEN_SIG) {
        notes.add("the central directory is damaged after " + Texts.count(list.size())
            + " entries (bad record signature); the rest is not listed");
        break;
      }
      int recLen = recordLength(b, at);
      if (pos + recLen > end) {
        notes.add("the central directory ends inside a record after " + Texts.count(list.size())
            + " entries; the rest is not listed");
        break;
      }
      if (pos + recLen > bufStart + buf.length) {
        buf = refill(source, buf, bufStart, pos, end, recLen);
        bufStart = pos;
        b = ByteBuffer.wrap(buf).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        at = 0;
      }
      listing.add(b, buf, at, prefix);
      pos += recLen;
    }
    if (list.size() < maxEntries && list.size() < declared) {
      notes.add("the end record declares " + Texts.count(declared) + " entries but the central "
          + "directory holds " + Texts.count(list.size()));
    }
    listing.noteNames(notes, "entry", "");
    return list;
  }

  /** Entries as a central directory is listed, with the name checks every listing reports. */
  private static final class Listing {
    private final List<ZipEntryInfo> list;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE);
    private final java.util.Set<String> seen = new java.util.HashSet<>();
    private int unsafe;
    private int duplicates;

    Listing(List<ZipEntryInfo> list) {
      this.list = list;
    }

    /** Adds the complete record at {@code at} of {@code buf}. */
    void add(ByteBuffer b, byte[] buf, int at, long prefix) {
      ZipEntryInfo e = record(b, buf, at, utf8, prefix, list.size());
      if (e.unsafeName()) {
        unsafe++;
      }
      if (!seen.add(e.name())) {
        duplicates++;
      }
      list.add(e);
    }

    /** Notes on unsafe and duplicate names; {@code what} names one entry, {@code where} the scope. */
    void noteNames(List<String> notes, String what, String where) {
      if (unsafe > 0) {
        notes.add(Texts.plural(unsafe, what) + " with unsafe names (absolute, drive letters or "
            + "'../'): a zip-slip risk for tools that extract; sparkrca extracts nothing");
      }
      if (duplicates > 0) {
        notes.add(Texts.plural(duplicates, "duplicate entry name") + where
            + " (java.util.zip and class loaders use the first)");
      }
    }
  }

  /** The complete central-directory record at {@code at} of {@code buf}. */
  private static ZipEntryInfo record(ByteBuffer b, byte[] buf, int at, CharsetDecoder utf8,
      long prefix, int index) {
    int flags = u16(b, at + 8);
    int method = u16(b, at + 10);
    long crc = u32(b, at + 16);
    long csize = u32(b, at + 20);
    long usize = u32(b, at + 24);
    int nameLen = u16(b, at + 28);
    int extraLen = u16(b, at + 30);
    long local = u32(b, at + 42);
    String name = decodeName(utf8, buf, at + 46, nameLen);
    // ZIP64 extra field: the 8-byte values replace those set to 0xFFFFFFFF, in this order.
    if (usize == 0xFFFFFFFFL || csize == 0xFFFFFFFFL || local == 0xFFFFFFFFL) {
      int x = at + 46 + nameLen;
      int xEnd = x + extraLen;
      while (x + 4 <= xEnd) {
        int id = u16(b, x);
        int len = u16(b, x + 2);
        if (id == 1) {
          int p = x + 4;
          int pEnd = Math.min(p + len, xEnd);
          if (usize == 0xFFFFFFFFL && p + 8 <= pEnd) {
            usize = b.getLong(p);
            p += 8;
          }
          if (csize == 0xFFFFFFFFL && p + 8 <= pEnd) {
            csize = b.getLong(p);
            p += 8;
          }
          if (local == 0xFFFFFFFFL && p + 8 <= pEnd) {
            local = b.getLong(p);
          }
          break;
        }
        x += 4 + len;
      }
    }
    return new ZipEntryInfo(name, index, method, flags, csize, usize, local + prefix, nameLen,
        extraLen, crc);
  }

  private static byte[] refill(ByteSource source, byte[] old, long oldStart, long pos, long end,
      int need) throws IOException {
    int len = (int) Math.min(end - pos, Math.max(CEN_CHUNK, need));
    byte[] fresh = source.read(pos, len);
    if (fresh.length < Math.min(need, len)) {
      throw new CorruptInputException(source.name() + ": the archive ends inside its central "
          + "directory; it is truncated, so copy it again");
    }
    return fresh;
  }

  private static String decodeName(CharsetDecoder utf8, byte[] buf, int off, int len) {
    boolean ascii = true;
    for (int i = off; i < off + len; i++) {
      if (buf[i] < 0) {
        ascii = false;
        break;
      }
    }
    if (ascii) {
      return new String(buf, off, len, StandardCharsets.ISO_8859_1);
    }
    try {
      CharBuffer cb = utf8.reset().decode(ByteBuffer.wrap(buf, off, len));
      return cb.toString();
    } catch (CharacterCodingException e) {
      return new String(buf, off, len, StandardCharsets.UTF_8);
    }
  }

  private static void checkOverlaps(List<ZipEntryInfo> list, List<String> notes) {
    if (list.size() < 2) {
      return;
    }
    List<ZipEntryInfo> sorted = new ArrayList<>(list);
    sorted.sort(Comparator.comparingLong(ZipEntryInfo::localHeaderOffset));
    int overlaps = 0;
    for (int i = 1; i < sorted.size(); i++) {
      ZipEntryInfo prev = sorted.get(i - 1);
      ZipEntryInfo cur = sorted.get(i);
      if (prev.compressedSize() == 0 && prev.isDirectory()) {
        continue;
      }
      if (cur.localHeaderOffset() < prev.localHeaderOffset() + 30 + prev.nameLength()
          + prev.compressedSize()) {
        overlaps++;
      }
    }
    if (overlaps > 0) {
      notes.add(Texts.plural(overlaps, "entry") + " overlap earlier entries' data (the "
          + "overlapping-file zip-bomb construction; no real jar does this)");
    }
  }

  /**
   * Streams one entry's uncompressed bytes, at most {@code limit} of them.
   *
   * @param firstChunk how many compressed bytes the first ranged read fetches; small when only
   *     the head of the entry is wanted (a class header), large for whole entries
   */
  EntryStream open(ZipEntryInfo e, long limit, int firstChunk) {
    if (e.encrypted()) {
      throw new UnsupportedInputException(where(e) + " is encrypted; sparkrca reads no "
          + "encrypted entries");
    }
    if (e.method() != ZipEntryInfo.STORED && e.method() != ZipEntryInfo.DEFLATED) {
      throw new UnsupportedInputException(where(e) + " is compressed with "
          + ZipEntryInfo.methodName(e.method()) + ", which jars never use; only stored and "
          + "deflated entries are read");
    }
    int ratio = ctx.limits.maxCompressionRatio();
    if (e.method() == ZipEntryInfo.DEFLATED && e.size() > RATIO_GRACE
        && e.size() / Math.max(1, e.compressedSize()) > ratio) {
      throw new CorruptInputException(where(e) + " declares " + Texts.bytes(e.size())
          + " from " + Texts.bytes(e.compressedSize()) + " (a compression ratio over " + ratio
          + ":1): a zip bomb, not read");
    }
    return new EntryStream(e, limit, firstChunk);
  }

  /**
   * All of an entry's bytes, in one array of the declared size: growing a buffer as {@code
   * readNBytes} does would hold about twice the entry at its peak.
   *
   * @throws CorruptInputException when the entry is larger than {@code limit}
   */
  byte[] readAll(ZipEntryInfo e, long limit) throws IOException {
    if (e.size() > limit) {
      throw new CorruptInputException(where(e) + " is " + Texts.bytes(e.size())
          + ", more than the " + Texts.bytes(limit) + " read for one entry");
    }
    // A stored entry's bytes are its compressed ones; a deflated one may not inflate past its
    // declared size (the stream stops it), so either bound is the most that can come out.
    long expected = Math.min(Math.min(limit, Integer.MAX_VALUE - 16),
        e.method() == ZipEntryInfo.STORED ? Math.max(e.size(), e.compressedSize()) : e.size());
    try (EntryStream in = open(e, limit, (int) Math.min(e.compressedSize() + 1024, CEN_CHUNK))) {
      checkHeap(e, expected); // after open's checks, so a zip bomb is called one
      byte[] data = new byte[(int) expected];
      int n = in.readNBytes(data, 0, data.length);
      if (n == data.length && (in.read() >= 0 || in.truncated())) {
        throw new CorruptInputException(where(e) + " inflates to more than "
            + Texts.bytes(n) + " (its directory record says " + Texts.bytes(e.size())
            + "): not read");
      }
      return n == data.length ? data : Arrays.copyOf(data, n);
    }
  }

  /**
   * Refuses to allocate {@code bytes} for one entry when that is more than a quarter of the
   * JVM's heap: the caps fit a server-sized heap, and an OutOfMemoryError would end the whole
   * process rather than this inspection.
   */
  private void checkHeap(ZipEntryInfo e, long bytes) {
    long share = Runtime.getRuntime().maxMemory() / 4;
    if (bytes > share) {
      throw new UnsupportedInputException(where(e) + " is " + Texts.bytes(bytes)
          + ", more than a quarter of this JVM's " + Texts.bytes(share * 4) + " heap, so it is "
          + "not read into memory; give the JVM more heap (-Xmx) or inspect a smaller entry");
    }
  }

  /** The largest compressed nested archive inflated into memory rather than to a file. */
  static long inMemoryNestedBytes() {
    // A sixteenth of the heap, at most 32 MiB: small heaps (a 256 MiB CLI) keep their room for
    // the inspection itself, and bigger nested jars cost a temporary file, not the process.
    return Math.max(1 << 20, Math.min(32L << 20, Runtime.getRuntime().maxMemory() / 16));
  }

  /**
   * A nested archive (a jar inside a jar) as a byte source: read in place when stored, the way
   * spring-boot and most fat-jar layouts keep them. A compressed one is inflated, within the
   * nested-archive cap, into memory when small ({@link #inMemoryNestedBytes()}), otherwise into a
   * temporary file owned by the inspection's {@link ReadContext}, which deletes it when the
   * inspection ends: memory stays bounded whatever the nested archive's size.
   */
  ByteSource nested(ZipEntryInfo e) throws IOException {
    String nestedName = source.name() + "!/" + e.name();
    if (e.method() == ZipEntryInfo.STORED && !e.encrypted()) {
      long dataStart = dataStart(e);
      if (dataStart + e.compressedSize() > size) {
        throw new CorruptInputException(where(e) + " runs past the end of the archive; it is "
            + "truncated");
      }
      return new SliceSource(source, nestedName, dataStart, e.compressedSize());
    }
    long cap = ctx.limits.maxNestedArchiveBytes();
    if (e.size() > cap) {
      throw new CorruptInputException(where(e) + " is a compressed nested archive of "
          + Texts.bytes(e.size()) + ", more than the " + Texts.bytes(cap) + " cap for one; "
          + "extract it (unzip -p) and inspect it directly, or raise maxNestedArchiveBytes");
    }
    if (e.size() <= inMemoryNestedBytes()) {
      return ByteSource.of(nestedName, readAll(e, e.size()));
    }
    return inflateToFile(e, nestedName, cap);
  }

  /** Inflates a compressed nested archive, at most {@code cap} bytes, into a temporary file. */
  private ByteSource inflateToFile(ZipEntryInfo e, String nestedName, long cap)
      throws IOException {
    java.nio.file.Path tmp;
    long written = 0;
    try (EntryStream in = open(e, cap, CEN_CHUNK)) {
      java.io.OutputStream out;
      try {
        tmp = ctx.temporaryFile("sparkrca-nested-", ".jar");
        out = java.nio.file.Files.newOutputStream(tmp);
      } catch (IOException ex) {
        throw noTemporaryFile(e, ex);
      }
      boolean done = false;
      try {
        byte[] buf = new byte[64 * 1024];
        int n;
        // Failures reading the outer archive propagate as they are; only the file's are ours.
        while ((n = in.read(buf, 0, buf.length)) > 0) {
          try {
            out.write(buf, 0, n);
          } catch (IOException ex) {
            throw noTemporaryFile(e, ex);
          }
          written += n;
        }
        try {
          out.close();
        } catch (IOException ex) {
          throw noTemporaryFile(e, ex);
        }
        done = true;
      } finally {
        if (!done) {
          try {
            out.close();
          } catch (IOException ignored) {
            // the failure being thrown says more; the context deletes the file anyway
          }
        }
      }
      if (in.truncated()) {
        throw new CorruptInputException(where(e) + " inflates to more than " + Texts.bytes(cap)
            + " (its directory record says " + Texts.bytes(e.size()) + "): not read");
      }
    }
    return new SliceSource(ByteSource.of(tmp), nestedName, 0, written);
  }

  private UnsupportedInputException noTemporaryFile(ZipEntryInfo e, IOException cause) {
    return new UnsupportedInputException(where(e) + " is a compressed nested archive of "
        + Texts.bytes(e.size()) + ", too big for memory, and it could not be inflated to a "
        + "temporary file in " + System.getProperty("java.io.tmpdir") + " (" + cause + "); "
        + "free space there or point java.io.tmpdir at a writable directory, or extract the "
        + "nested archive (unzip -p) and inspect it directly", cause);
  }

  /** Where the entry's data begins: after its local header. */
  long dataStart(ZipEntryInfo e) throws IOException {
    byte[] h = source.read(e.localHeaderOffset(), 30);
    ByteBuffer b = ByteBuffer.wrap(h).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    if (h.length < 30 || b.getInt(0) != LOC_SIG) {
      throw new CorruptInputException(where(e) + ": no local header at offset "
          + e.localHeaderOffset() + "; the archive is corrupt");
    }
    return e.localHeaderOffset() + 30 + u16(b, 26) + u16(b, 28);
  }

  String where(ZipEntryInfo e) {
    return source.name() + "!/" + Texts.safe(e.name());
  }

  private static int u16(ByteBuffer b, int at) {
    return b.getShort(at) & 0xFFFF;
  }

  private static long u32(ByteBuffer b, int at) {
    return b.getInt(at) & 0xFFFFFFFFL;
  }

  /**
   * An entry's uncompressed bytes, fetched with ranged reads of growing size and inflated with
   * checks: at most {@code limit} bytes come out ({@link #truncated()} then says more exist), the
   * declared size is not exceeded, the compression ratio stays under the cap, and the inspection's
   * total inflation budget is charged.
   */
  final class EntryStream extends InputStream {
    private final ZipEntryInfo entry;
    private final long limit;
    private int nextChunk;
    private Inflater inflater;
    private long compressedPos; // absolute position of the next compressed byte to fetch
    private long compressedLeft = -1; // compressed bytes not yet fetched; -1 before the header
    private byte[] chunk = new byte[0];
    private int chunkPos;
    private long produced;
    private long consumedCompressed;
    private boolean done;
    private boolean truncated;

    EntryStream(ZipEntryInfo entry, long limit, int firstChunk) {
      this.entry = entry;
      this.limit = limit;
      this.nextChunk = Math.max(256, firstChunk);
    }

    /** Whether the entry holds more than the limit allowed to be read. */
    boolean truncated() {
      return truncated;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n <= 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] out, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      if (done) {
        return -1;
      }
      if (compressedLeft < 0) {
        start();
      }
      if (produced >= limit) {
        // Anything left means the entry is bigger than we may read.
        truncated = hasMore();
        done = true;
        return -1;
      }
      int want = (int) Math.min(len, limit - produced);
      int n = entry.method() == ZipEntryInfo.STORED ? readStored(out, off, want)
          : readDeflated(out, off, want);
      if (n < 0) {
        done = true;
        return -1;
      }
      produced += n;
      ctx.countInflated(n, where(entry));
      return n;
    }

    private boolean hasMore() throws IOException {
      if (entry.method() == ZipEntryInfo.STORED) {
        return compressedLeft > 0 || chunkPos < chunk.length;
      }
      if (inflater.finished()) {
        return false;
      }
      byte[] probe = new byte[1];
      return readDeflated(probe, 0, 1) > 0;
    }

    private void start() throws IOException {
      int headGuess = 30 + entry.nameLength() + entry.centralExtraLength() + 64;
      long want = Math.min(entry.compressedSize(), nextChunk);
      byte[] head = source.read(entry.localHeaderOffset(), (int) (headGuess + want));
      ByteBuffer b = ByteBuffer.wrap(head).order(java.nio.ByteOrder.LITTLE_ENDIAN);
      if (head.length < 30 || b.getInt(0) != LOC_SIG) {
        throw new CorruptInputException(where(entry) + ": no local header at offset "
            + entry.localHeaderOffset() + "; the archive is truncated or corrupt");
      }
      int headerLen = 30 + u16(b, 26) + u16(b, 28);
      long dataStart = entry.localHeaderOffset() + headerLen;
      if (dataStart + entry.compressedSize() > size) {
        throw new CorruptInputException(where(entry) + ": its data runs past the end of the "
            + "archive; the archive is truncated, so copy it again");
      }
      int have = (int) Math.max(0, Math.min(head.length - headerLen, entry.compressedSize()));
      chunk = head;
      chunkPos = Math.min(headerLen, head.length);
      compressedPos = dataStart + have;
      compressedLeft = entry.compressedSize() - have;
      // Only the bytes of this entry count as input.
      if (have < head.length - headerLen) {
        byte[] exact = new byte[headerLen + have];
        System.arraycopy(head, 0, exact, 0, exact.length);
        chunk = exact;
      }
      nextChunk = (int) Math.min(CEN_CHUNK, Math.max(nextChunk * 4L, 64 * 1024));
      if (entry.method() == ZipEntryInfo.DEFLATED) {
        inflater = new Inflater(true);
      }
    }

    /** Fetches the next compressed chunk; false when the entry's data is exhausted. */
    private boolean fetch() throws IOException {
      if (compressedLeft <= 0) {
        return false;
      }
      int len = (int) Math.min(compressedLeft, nextChunk);
      byte[] next = source.read(compressedPos, len);
      if (next.length < len) {
        throw new CorruptInputException(where(entry) + ": the archive ends inside this entry; "
            + "it is truncated, so copy it again");
      }
      chunk = next;
      chunkPos = 0;
      compressedPos += len;
      compressedLeft -= len;
      nextChunk = (int) Math.min(CEN_CHUNK, nextChunk * 2L);
      return true;
    }

    private int readStored(byte[] out, int off, int len) throws IOException {
      if (chunkPos >= chunk.length && !fetch()) {
        return -1;
      }
      int n = Math.min(len, chunk.length - chunkPos);
      System.arraycopy(chunk, chunkPos, out, off, n);
      chunkPos += n;
      return n;
    }

    private int readDeflated(byte[] out, int off, int len) throws IOException {
      try {
        while (true) {
          int n = inflater.inflate(out, off, len);
          if (n > 0) {
            consumedCompressed = inflater.getBytesRead();
            long total = produced + n;
            if (total > entry.size()) {
              throw new CorruptInputException(where(entry) + " inflates past its declared size "
                  + "of " + Texts.count(entry.size()) + " bytes: corrupt, or a zip bomb");
            }
            if (total > RATIO_GRACE
                && total / Math.max(1, consumedCompressed) > ctx.limits.maxCompressionRatio()) {
              throw new CorruptInputException(where(entry) + " inflates more than "
                  + ctx.limits.maxCompressionRatio() + " times its compressed size: a zip bomb, "
                  + "not read further");
            }
            return n;
          }
          if (inflater.finished()) {
            return -1;
          }
          if (inflater.needsDictionary()) {
            throw new CorruptInputException(where(entry) + ": its deflate stream needs a preset "
                + "dictionary, which ZIP does not use; the entry is corrupt");
          }
          if (inflater.needsInput()) {
            if (chunkPos >= chunk.length && !fetch()) {
              throw new CorruptInputException(where(entry) + ": its deflate stream ends early; "
                  + "the entry is truncated or corrupt");
            }
            inflater.setInput(chunk, chunkPos, chunk.length - chunkPos);
            chunkPos = chunk.length;
          }
        }
      } catch (DataFormatException ex) {
        throw new CorruptInputException(where(entry) + ": invalid deflate data ("
            + ex.getMessage() + "); the entry is corrupt", ex);
      }
    }

    @Override
    public void close() {
      done = true;
      if (inflater != null) {
        inflater.end();
        inflater = null;
      }
    }
  }
}
