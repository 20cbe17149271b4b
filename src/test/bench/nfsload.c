/*
 * nfsload: the NFS client of the ceiling harness (nfs-ceiling.sh), on libnfs's async API (Debian libnfs-dev 4.0), so
 * the same client drives nfs-ganesha and ossgw. It keeps DEPTH 1 MiB WRITEs or READs in flight on one connection, as
 * the Linux kernel client does with wsize/rsize=1M (libnfs's own nfs-cp and nfs-cat wait for each reply before the
 * next call, which measures the round trip, not the server). Every 1 MiB block carries its offset in its first 8
 * bytes over a fixed pseudo-random body, and a position-dependent checksum of everything written or read is printed,
 * so the harness can check that a read returns what a write sent (not against FSAL_MEM, which keeps no data).
 *
 *   nfsload write URL SIZE_MIB DEPTH     create/truncate the file, SIZE_MIB MiB in 1 MiB UNSTABLE WRITEs, COMMIT
 *   nfsload read  URL DEPTH              read the whole file in 1 MiB READs
 *   nfsload small URL COUNT SIZE_KIB [DIR]  COUNT files URL-0 .. URL-(COUNT-1): create, one WRITE, COMMIT, close each;
 *                                        with DIR, in the export's directory DIR, made first (MKDIR; one that exists,
 *                                        made by another process, is fine), as cp -r makes the directories it fills
 *   nfsload smallread URL COUNT [DIR]    read those files back whole, one at a time
 *
 * URL is a libnfs URL (nfs://127.0.0.1/export/path?version=3&nfsport=P&mountport=P). Prints one line of JSON:
 * {"bytes": N, "seconds": S, "files": F, "checksum": "HEX"}. Exit status 1 on any failure, with the reason on stderr.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <nfsc/libnfs.h>

#define BLOCK (1 << 20)

static uint64_t checksum;
static unsigned char *pattern;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static void die(const char *what, struct nfs_context *nfs) {
  fprintf(stderr, "nfsload: %s: %s\n", what, nfs ? nfs_get_error(nfs) : strerror(errno));
  exit(1);
}

/* The body: xorshift64 bytes, the same in every run. */
static void make_pattern(void) {
  pattern = malloc(BLOCK);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (size_t i = 0; i < BLOCK; i += 8) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    memcpy(pattern + i, &x, 8);
  }
}

/* Fills a block for file offset `off` (its first 8 bytes are the offset). */
static void fill(unsigned char *buf, uint64_t off, size_t n) {
  memcpy(buf, pattern, n);
  if (n >= 8) {
    memcpy(buf, &off, 8);
  }
}

/* Adds n bytes at file offset off to the checksum: order-independent, position-dependent. */
static void sum(const unsigned char *p, uint64_t off, size_t n) {
  uint64_t h = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    h += (w ^ (off + i)) * 0x9E3779B97F4A7C15ull;
  }
  for (; i < n; i++) {
    h += ((uint64_t) p[i] ^ (off + i)) * 0xC2B2AE3D27D4EB4Full;
  }
  checksum += h;
}

static struct nfs_context *connect_url(const char *url, char **path) {
  struct nfs_context *nfs = nfs_init_context();
  if (nfs == NULL) {
    die("nfs_init_context", NULL);
  }
  /* libnfs reconnects for ever by default: a client of a server that died would spin in its reconnect loop and load
     every later measurement; fail the call instead */
  nfs_set_autoreconnect(nfs, 0);
  struct nfs_url *u = nfs_parse_url_full(nfs, url);
  if (u == NULL) {
    die("parse url", nfs);
  }
  if (nfs_mount(nfs, u->server, u->path) != 0) {
    die("mount", nfs);
  }
  *path = strdup(u->file);
  nfs_destroy_url(u);
  return nfs;
}

/* --- pipelined write and read --- */

struct pipe {
  struct nfs_context *nfs;
  struct nfsfh *fh;
  uint64_t size, next, done;
  int inflight, failed, committed;
  unsigned char *bufs; /* DEPTH blocks, one per call in flight */
};

struct slot {
  struct pipe *p;
  uint64_t off;
  size_t len;
  unsigned char *buf;
};

static void issue_write(struct slot *s);

static void write_cb(int status, struct nfs_context *nfs, void *data, void *priv) {
  struct slot *s = priv;
  struct pipe *p = s->p;
  p->inflight--;
  if (status < 0 || (size_t) status != s->len) {
    fprintf(stderr, "nfsload: WRITE at %" PRIu64 ": %s\n", s->off, status < 0 ? (char *) data : "short write");
    p->failed = 1;
    return;
  }
  p->done += s->len;
  if (p->next < p->size) {
    issue_write(s);
  }
}

static void issue_write(struct slot *s) {
  struct pipe *p = s->p;
  s->off = p->next;
  s->len = p->size - p->next < BLOCK ? p->size - p->next : BLOCK;
  p->next += s->len;
  fill(s->buf, s->off, s->len);
  sum(s->buf, s->off, s->len);
  if (nfs_pwrite_async(p->nfs, p->fh, s->off, s->len, s->buf, write_cb, s) != 0) {
    die("pwrite_async", p->nfs);
  }
  p->inflight++;
}

static void issue_read(struct slot *s);

static void read_cb(int status, struct nfs_context *nfs, void *data, void *priv) {
  struct slot *s = priv;
  struct pipe *p = s->p;
  p->inflight--;
  if (status < 0 || (size_t) status != s->len) {
    fprintf(stderr, "nfsload: READ at %" PRIu64 ": %s\n", s->off, status < 0 ? (char *) data : "short read");
    p->failed = 1;
    return;
  }
  sum(data, s->off, s->len);
  p->done += s->len;
  if (p->next < p->size) {
    issue_read(s);
  }
}

static void issue_read(struct slot *s) {
  struct pipe *p = s->p;
  s->off = p->next;
  s->len = p->size - p->next < BLOCK ? p->size - p->next : BLOCK;
  p->next += s->len;
  if (nfs_pread_async(p->nfs, p->fh, s->off, s->len, read_cb, s) != 0) {
    die("pread_async", p->nfs);
  }
  p->inflight++;
}

static void commit_cb(int status, struct nfs_context *nfs, void *data, void *priv) {
  struct pipe *p = priv;
  p->inflight--;
  if (status < 0) {
    fprintf(stderr, "nfsload: COMMIT: %s\n", (char *) data);
    p->failed = 1;
  }
  p->committed = 1;
}

/* Services the connection until nothing is in flight. */
static void run(struct pipe *p) {
  while (p->inflight > 0) {
    struct pollfd pfd = {.fd = nfs_get_fd(p->nfs), .events = nfs_which_events(p->nfs)};
    if (poll(&pfd, 1, 1000) < 0) {
      die("poll", NULL);
    }
    if (nfs_service(p->nfs, pfd.revents) < 0) {
      die("service", p->nfs);
    }
  }
  if (p->failed) {
    exit(1);
  }
}

static void pipelined(const char *mode, const char *url, uint64_t size, int depth) {
  char *path;
  struct pipe p = {0};
  p.nfs = connect_url(url, &path);
  int writing = strcmp(mode, "write") == 0;
  if (writing) {
    if (nfs_open(p.nfs, path, O_WRONLY | O_CREAT | O_TRUNC, &p.fh) != 0) {
      die("open for writing", p.nfs);
    }
    p.size = size;
  } else {
    struct nfs_stat_64 st;
    if (nfs_open(p.nfs, path, O_RDONLY, &p.fh) != 0 || nfs_fstat64(p.nfs, p.fh, &st) != 0) {
      die("open for reading", p.nfs);
    }
    p.size = st.nfs_size;
  }
  struct slot *slots = calloc(depth, sizeof *slots);
  p.bufs = malloc((size_t) depth * BLOCK);
  double t0 = now();
  for (int i = 0; i < depth && p.next < p.size; i++) {
    slots[i] = (struct slot){.p = &p, .buf = p.bufs + (size_t) i * BLOCK};
    if (writing) {
      issue_write(&slots[i]);
    } else {
      issue_read(&slots[i]);
    }
  }
  run(&p);
  if (writing) {
    if (nfs_fsync_async(p.nfs, p.fh, commit_cb, &p) != 0) {
      die("fsync_async", p.nfs);
    }
    p.inflight++;
    run(&p);
  }
  double t1 = now();
  nfs_close(p.nfs, p.fh);
  printf("{\"bytes\": %" PRIu64 ", \"seconds\": %.4f, \"files\": 1, \"checksum\": \"%016" PRIx64 "\"}\n", p.done,
         t1 - t0, checksum);
  nfs_destroy_context(p.nfs);
}

/* --- many small files, one synchronous call at a time (as one process of a parallel copy does) --- */

static void small(const char *mode, const char *url, int count, size_t size, const char *dir) {
  char *path;
  struct nfs_context *nfs = connect_url(url, &path);
  if (dir != NULL) { /* "/DIR" + "/name" */
    char *in_dir = malloc(strlen(dir) + strlen(path) + 2);
    sprintf(in_dir, "/%s%s", dir, path);
    if (strcmp(mode, "small") == 0) {
      in_dir[strlen(dir) + 1] = '\0';
      struct nfs_stat_64 st;
      if (nfs_mkdir(nfs, in_dir) != 0 && (nfs_stat64(nfs, in_dir, &st) != 0 || !S_ISDIR(st.nfs_mode))) {
        die("mkdir", nfs);
      }
      sprintf(in_dir, "/%s%s", dir, path);
    }
    free(path);
    path = in_dir;
  }
  unsigned char *buf = malloc(size > BLOCK ? size : BLOCK);
  size_t name_len = strlen(path) + 16;
  char *name = malloc(name_len);
  uint64_t bytes = 0;
  double t0 = now();
  for (int i = 0; i < count; i++) {
    struct nfsfh *fh;
    snprintf(name, name_len, "%s-%d", path, i);
    if (strcmp(mode, "small") == 0) {
      if (nfs_open(nfs, name, O_WRONLY | O_CREAT | O_TRUNC, &fh) != 0) {
        die("create", nfs);
      }
      fill(buf, 0, size);
      sum(buf, 0, size);
      if (nfs_pwrite(nfs, fh, 0, size, buf) != (int) size || nfs_fsync(nfs, fh) != 0) {
        die("write+commit", nfs);
      }
      bytes += size;
    } else {
      struct nfs_stat_64 st;
      if (nfs_open(nfs, name, O_RDONLY, &fh) != 0 || nfs_fstat64(nfs, fh, &st) != 0) {
        die("open", nfs);
      }
      uint64_t off = 0;
      while (off < st.nfs_size) {
        int n = nfs_pread(nfs, fh, off, st.nfs_size - off < BLOCK ? st.nfs_size - off : BLOCK, buf);
        if (n <= 0) {
          die("read", nfs);
        }
        sum(buf, off, n);
        off += n;
      }
      bytes += off;
    }
    nfs_close(nfs, fh);
  }
  double t1 = now();
  printf("{\"bytes\": %" PRIu64 ", \"seconds\": %.4f, \"files\": %d, \"checksum\": \"%016" PRIx64 "\"}\n", bytes,
         t1 - t0, count, checksum);
  nfs_destroy_context(nfs);
}

int main(int argc, char **argv) {
  make_pattern();
  if (argc == 5 && strcmp(argv[1], "write") == 0) {
    pipelined(argv[1], argv[2], strtoull(argv[3], NULL, 10) << 20, atoi(argv[4]));
  } else if (argc == 4 && strcmp(argv[1], "read") == 0) {
    pipelined(argv[1], argv[2], 0, atoi(argv[3]));
  } else if ((argc == 5 || argc == 6) && strcmp(argv[1], "small") == 0) {
    small(argv[1], argv[2], atoi(argv[3]), (size_t) strtoul(argv[4], NULL, 10) << 10, argc == 6 ? argv[5] : NULL);
  } else if ((argc == 4 || argc == 5) && strcmp(argv[1], "smallread") == 0) {
    small(argv[1], argv[2], atoi(argv[3]), 0, argc == 5 ? argv[4] : NULL);
  } else {
    fprintf(stderr, "usage: nfsload write URL SIZE_MIB DEPTH | read URL DEPTH | small URL COUNT SIZE_KIB [DIR] | "
                    "smallread URL COUNT [DIR]\n");
    return 2;
  }
  return 0;
}
