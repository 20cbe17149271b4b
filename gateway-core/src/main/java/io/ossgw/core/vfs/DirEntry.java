package io.ossgw.core.vfs;

/**
 * One entry of a directory listing, with its attributes (filled from ListObjectsV2, not from a HEAD per entry).
 *
 * @param name the entry's name (one path component, no slash)
 * @param attr its attributes
 * @param position where the entry sorts in the listing, and what resumes a paged listing after it ({@link
 *     VirtualFileSystem#readdir(String, String, int)}): the entry's key below the directory as OSS lists it, compared
 *     in UTF-8 byte order ({@link DirPage#compare}). A file's position is its name, a directory's its name and
 *     {@code '/'} (OSS lists a directory as the common prefix {@code name/}), so directory {@code a} sorts after file
 *     {@code a-b}.
 */
public record DirEntry(String name, FileAttr attr, String position) {

  /** An entry positioned as OSS lists it: {@code name/} for a directory, {@code name} for anything else. */
  public DirEntry(String name, FileAttr attr) {
    this(name, attr, attr != null && attr.isDirectory() ? name + "/" : name);
  }

  /** This entry with other attributes, at the same position. */
  public DirEntry withAttr(FileAttr a) {
    return a == attr ? this : new DirEntry(name, a, position);
  }
}
