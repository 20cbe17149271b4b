/**
 * Inode numbers that follow an object through renames and survive restarts: {@link io.ossgw.core.inode.InodeTable}
 * (the persistent path &lt;-&gt; number table NFS's file handles and the engine share) and {@link
 * io.ossgw.core.inode.InodeNumbers} (the engine's decorator that reports the table's numbers as {@code
 * FileAttr.ino()}, the {@code st_ino} FUSE shows with {@code use_ino}).
 */
package io.ossgw.core.inode;
