/*
 * The kernel work of the gateway's NFS write path, with nothing else: the floor under nfs-ceiling.sh's "write" rows.
 *
 * What `ossgw serve --nfs` does per byte of a sequential NFS write, done here in C with no RPC, XDR, HTTP or Java:
 * receive it from a loopback TCP socket in reads of up to 256 KiB (ReceiveMemory.PIECE), sum it with ISA-L's
 * CRC-64 (the part CRC the upload is checked with; the gateway's own library, libisal.so.2, loaded with dlopen), write
 * it into a new spool file with pwrite (the page cache of the spool's file system), and send each whole part of
 * PART_MIB MiB from that file to a second loopback socket with sendfile (the UploadPart body). A child process sends
 * the bytes (1 MiB writes, as the client's WRITE payloads arrive) and another drains the upload; neither is counted.
 *
 * Usage: spoolfloor SIZE_MIB SPOOL_DIR [PART_MIB=10] [MODE=pwrite]
 * MODE pwrite is the gateway's path; splice receives with splice(2) socket -> pipe -> spool file instead of read and
 * pwrite (the kernel moves the socket's pages into the pipe; one copy, into the page cache, instead of two; the CRC
 * then reads the page cache through a read-only mapping of each part), the lead for the NFS write that
 * docs/benchmarks.md weighs; recv only receives and sums (no spool, no upload: the part any server pays).
 * Prints one JSON object: bytes, seconds (wall), cpu_s and sys_s of this process alone (getrusage RUSAGE_SELF).
 * Exit status 1 with a message on stderr when a step fails (no ISA-L, a short write, a child that saw fewer bytes).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MIB (1L << 20)
#define PIECE (256 * 1024)

static void die(const char *what) {
  perror(what);
  exit(1);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static void usage_s(double *cpu, double *sys) {
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  *sys = r.ru_stime.tv_sec + r.ru_stime.tv_usec / 1e6;
  *cpu = *sys + r.ru_utime.tv_sec + r.ru_utime.tv_usec / 1e6;
}

/* A listening loopback socket on a port the kernel picks; its address in *a. */
static int listen_any(struct sockaddr_in *a) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  memset(a, 0, sizeof *a);
  a->sin_family = AF_INET;
  a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t n = sizeof *a;
  if (s < 0 || bind(s, (struct sockaddr *)a, n) || listen(s, 1) || getsockname(s, (struct sockaddr *)a, &n)) die("listen");
  return s;
}

static int connect_to(const struct sockaddr_in *a) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  if (s < 0 || connect(s, (const struct sockaddr *)a, sizeof *a)) die("connect");
  return s;
}

/* Child: sends `total` bytes in 1 MiB writes. */
static void send_all(const struct sockaddr_in *a, long total) {
  int s = connect_to(a);
  char *b = malloc(MIB);
  memset(b, 0x5a, MIB);
  for (long n = 0; n < total;) {
    ssize_t w = write(s, b, total - n < MIB ? total - n : MIB);
    if (w <= 0) die("send");
    n += w;
  }
  close(s);
  exit(0);
}

/* Child: reads its one connection to the end; exit status 0 when it got `total` bytes. */
static void drain(int ls, long total) {
  int s = accept(ls, NULL, NULL);
  char *b = malloc(MIB);
  long n = 0;
  ssize_t r;
  while ((r = read(s, b, MIB)) > 0) n += r;
  exit(n == total ? 0 : 1);
}

/* Sends [from, to) of the spool file to the upload socket. */
static void upload(int out, int fd, long from, long to) {
  off_t off = from;
  while (off < to) {
    ssize_t w = sendfile(out, fd, &off, to - off);
    if (w <= 0) die("sendfile");
  }
}

/* The CRC-64 of [from, to) of the spool file, continued from crc, read through a read-only mapping. */
static uint64_t crc_mapped(uint64_t (*crc64)(uint64_t, const unsigned char *, uint64_t), uint64_t crc, int fd,
                           long from, long to) {
  if (to <= from) return crc;
  long base = from & ~4095L;
  unsigned char *m = mmap(NULL, to - base, PROT_READ, MAP_SHARED, fd, base);
  if (m == MAP_FAILED) die("mmap");
  crc = crc64(crc, m + (from - base), to - from);
  munmap(m, to - base);
  return crc;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: spoolfloor SIZE_MIB SPOOL_DIR [PART_MIB] [pwrite|splice|recv]\n");
    return 2;
  }
  long total = atol(argv[1]) * MIB, part = (argc > 3 ? atol(argv[3]) : 10) * MIB;
  const char *mode = argc > 4 ? argv[4] : "pwrite";
  int splicing = !strcmp(mode, "splice"), spooling = strcmp(mode, "recv") != 0;
  if (!splicing && spooling && strcmp(mode, "pwrite")) {
    fprintf(stderr, "spoolfloor: unknown mode %s\n", mode);
    return 2;
  }
  void *isal = dlopen("libisal.so.2", RTLD_NOW);
  uint64_t (*crc64)(uint64_t, const unsigned char *, uint64_t) = isal ? dlsym(isal, "crc64_ecma_refl") : NULL;
  if (!crc64) {
    fprintf(stderr, "spoolfloor: no crc64_ecma_refl in libisal.so.2 (Debian: libisal2)\n");
    return 1;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/spoolfloor.%d", argv[2], getpid());

  struct sockaddr_in in_addr, out_addr;
  int in_ls = listen_any(&in_addr), out_ls = listen_any(&out_addr);
  pid_t sender = fork();
  if (sender == 0) send_all(&in_addr, total);
  pid_t sink = fork();
  if (sink == 0) drain(out_ls, spooling ? total : 0);
  int in = accept(in_ls, NULL, NULL), out = connect_to(&out_addr);
  int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd < 0) die(path);

  double c0, s0, c1, s1;
  usage_s(&c0, &s0);
  double t0 = now();
  char *piece = aligned_alloc(4096, PIECE);
  long n = 0, sent = 0;
  uint64_t crc = 0;
  int pipefd[2];
  if (splicing && (pipe(pipefd) || fcntl(pipefd[1], F_SETPIPE_SZ, PIECE) < 0)) die("pipe");
  while (n < total) {
    ssize_t r;
    if (splicing) {
      r = splice(in, NULL, pipefd[1], NULL, PIECE, SPLICE_F_MOVE);
      if (r <= 0) die("splice from the socket");
      loff_t at = n;
      for (ssize_t w = 0; w < r;) {
        ssize_t k = splice(pipefd[0], NULL, fd, &at, r - w, SPLICE_F_MOVE);
        if (k <= 0) die("splice into the spool");
        w += k;
      }
    } else {
      r = read(in, piece, PIECE);
      if (r <= 0) die("receive");
      crc = crc64(crc, (const unsigned char *)piece, r);
      for (ssize_t w = 0; spooling && w < r;) {
        ssize_t k = pwrite(fd, piece + w, r - w, n + w);
        if (k <= 0) die("pwrite");
        w += k;
      }
    }
    n += r;
    while (spooling && n - sent >= part) {
      if (splicing) crc = crc_mapped(crc64, crc, fd, sent, sent + part);
      upload(out, fd, sent, sent + part);
      sent += part;
    }
  }
  if (splicing) crc = crc_mapped(crc64, crc, fd, sent, n);
  if (spooling) upload(out, fd, sent, n);
  close(out);
  double t1 = now();
  usage_s(&c1, &s1);

  int st1, st2;
  waitpid(sender, &st1, 0);
  waitpid(sink, &st2, 0);
  close(fd);
  unlink(path);
  if (!WIFEXITED(st1) || WEXITSTATUS(st1) || !WIFEXITED(st2) || WEXITSTATUS(st2)) {
    fprintf(stderr, "spoolfloor: a child failed (sender %d, upload sink %d)\n", st1, st2);
    return 1;
  }
  printf("{\"mode\": \"%s\", \"bytes\": %ld, \"seconds\": %.3f, \"cpu_s\": %.3f, \"sys_s\": %.3f, \"crc64\": \"%016llx\"}\n", mode, n, t1 - t0,
         c1 - c0, s1 - s0, (unsigned long long)crc);
  return 0;
}
