package io.ossgw.nfs.v4;

/**
 * An operation's filehandle named an object a concurrent RENAME moved ({@link V4Handles#stat}): the compound puts
 * {@code now} where {@code was} stood (current or saved filehandle) and runs the operation again. Operations call
 * {@link V4Handles#stat} before they change anything, so running one again is safe. Not an Nfs4Exception, so an
 * operation does not answer it itself.
 *
 * @param was the target as the filehandle resolved before the rename
 * @param now the same filehandle resolved after it
 */
final class V4Moved extends RuntimeException {
  final transient V4Target was;
  final transient V4Target now;

  V4Moved(V4Target was, V4Target now) {
    super(was.path() + " was renamed to " + now.path(), null, false, false);
    this.was = was;
    this.now = now;
  }
}
