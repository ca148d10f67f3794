/*
 * hookwire-spawn: the native spawn helper. Same job and same protocol as
 * src/supervision/spawn-helper.ts (see helper-protocol.ts), built only where a C
 * compiler exists (scripts/build-native.ts); without it hookwire uses the Node helper.
 *
 * Why: a hook's spawn through posix_spawn (vfork + exec) from this tiny process costs what a
 * minimal C program pays, where Node's child_process.spawn forks a ~40 MiB process and blocks
 * its event loop until the exec. One poll() loop supervises every run: stdin payload, capped
 * stdout/stderr, deadline, cancellation, the SIGTERM -> grace -> SIGKILL sequence for the run's
 * process group and for the processes that left it (found by HOOKWIRE_HOOK_RUN and ancestry in
 * /proc), and the clean-up of everything when the parent goes away (stdin EOF) or on SIGTERM.
 * On Linux it is also a child subreaper, so orphans of hooks are reparented to it and reaped.
 *
 * Frames: u32 header length, u32 body length (big-endian), header, body. Requests (header
 * fields separated by NUL): "run" id timeoutMs killGraceMs maxOutputBytes inputFile inputPipe
 * command cwd NAME=VALUE… (empty fields: the defaults / none), body = stdin payload; "exec", the
 * same with argc in place of command and the argv (program first, run without a shell, found on
 * PATH) after cwd: "exec" id … inputPipe argc cwd ARG0 … ARGn-1 NAME=VALUE…; "cancel" id;
 * "opened" id (the parent holds the write end of the run's input pipe). Replies: JSON headers as
 * in helper-protocol.ts.
 *
 * Usage: hookwire-spawn SCOPE  (tags are SCOPE.N).
 *
 * Reaper mode: hookwire-spawn --reaper GRACE_MS PROGRAM [ARG...]. A child subreaper that starts
 * PROGRAM (stdin, stdout and stderr inherited: no data passes through it) and holds everything
 * below it: an orphan anywhere in PROGRAM's tree (its parent killed, a double fork, `setsid`, a
 * cleared environment) is reparented to the reaper, which is not PROGRAM's children's parent, so
 * killing PROGRAM or any process in between cannot let it out. When PROGRAM exits, or fd 3 (a
 * pipe only hookwire writes, if open) ends because hookwire died or let go, or the reaper gets
 * SIGTERM/SIGINT/SIGHUP, every process below it gets SIGTERM, then SIGKILL after GRACE_MS, and
 * the reaper exits as PROGRAM did (same code, or the same signal). PROGRAM gets SIGKILL if the
 * reaper itself is killed (PR_SET_PDEATHSIG). hookwire runs the spawn helper, process hooks and
 * stdio MCP servers this way (docs/decisions/0025-containment-reaper.md).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

extern char **environ;

#define DEFAULT_GRACE_MS 2000.0
#define DEFAULT_MAX_OUTPUT (1024 * 1024)
#define DRAIN_WINDOW_MS 250.0
#define POLL_MS 25.0
#define TAG_VARIABLE "HOOKWIRE_HOOK_RUN"

typedef struct {
  char *data;
  size_t length, capacity, limit;
  int truncated;
} output_t;

typedef struct run {
  struct run *next;
  long id;
  pid_t pid;
  int in_fd, out_fd, err_fd;
  /* Write end of the input FIFO held until the parent opened its own (see start_run). */
  int guard_fd;
  char *input;
  size_t input_length, input_written;
  output_t out, err;
  double started, deadline, drain_deadline, grace_ms, kill_deadline, next_poll;
  int settled, leader_exited, exit_code, exit_signal, killing, escapees;
  char tag[160];
  char tag_entry[200]; /* TAG_VARIABLE=tag, in the hook's environment */
} run_t;

static run_t *runs;
static const char *scope;
static long next_tag = 1;
static double max_grace = 0;
static int stdin_ended;
static int sigchld_pipe[2];
static volatile sig_atomic_t stop_requested;
static char *in_buffer;
static size_t in_length, in_capacity;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n);
  if (q == NULL) {
    fputs("hookwire-spawn: out of memory\n", stderr);
    exit(70);
  }
  return q;
}

/* ---- replies ---------------------------------------------------------------------------- */

static void put_u32(char *p, uint32_t v) {
  p[0] = (char)(v >> 24);
  p[1] = (char)(v >> 16);
  p[2] = (char)(v >> 8);
  p[3] = (char)v;
}

static void write_all(struct iovec *next, int count) {
  while (count > 0) {
    ssize_t n = writev(1, next, count);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN) {
        struct pollfd p = {1, POLLOUT, 0};
        poll(&p, 1, -1);
        continue;
      }
      stdin_ended = 1; /* EPIPE: the parent is gone */
      return;
    }
    while (count > 0 && (size_t)n >= next->iov_len) {
      n -= (ssize_t)next->iov_len;
      next++;
      count--;
    }
    if (count > 0) {
      next->iov_base = (char *)next->iov_base + n;
      next->iov_len -= (size_t)n;
    }
  }
}

/*
 * Replies of one turn of the loop (the "started" and results of a parallel group) are gathered
 * and written together before the next poll, so the parent wakes once for them, not once each.
 */
#define REPLY_BUFFER_BYTES 65536
static char reply_buffer[REPLY_BUFFER_BYTES];
static size_t reply_length;

static void flush_replies(void) {
  if (reply_length == 0) return;
  struct iovec whole = {reply_buffer, reply_length};
  reply_length = 0;
  write_all(&whole, 1);
}

static void send_frame(const char *header, size_t header_length, const output_t *a,
                       const output_t *b) {
  size_t body = (a ? a->length : 0) + (b ? b->length : 0);
  char prefix[8];
  put_u32(prefix, (uint32_t)header_length);
  put_u32(prefix + 4, (uint32_t)body);
  struct iovec parts[4] = {{prefix, 8}, {(void *)header, header_length}, {NULL, 0}, {NULL, 0}};
  int count = 2;
  if (a && a->length) parts[count++] = (struct iovec){a->data, a->length};
  if (b && b->length) parts[count++] = (struct iovec){b->data, b->length};
  size_t total = 8 + header_length + body;
  if (reply_length + total > REPLY_BUFFER_BYTES) flush_replies();
  if (total > REPLY_BUFFER_BYTES) {
    write_all(parts, count); /* a large output goes out as it is, not copied */
    return;
  }
  for (int i = 0; i < count; i++) {
    memcpy(reply_buffer + reply_length, parts[i].iov_base, parts[i].iov_len);
    reply_length += parts[i].iov_len;
  }
}

static const char *signal_name(int signo) {
  static char other[16];
  switch (signo) {
    case SIGHUP: return "SIGHUP";
    case SIGINT: return "SIGINT";
    case SIGQUIT: return "SIGQUIT";
    case SIGILL: return "SIGILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGUSR1: return "SIGUSR1";
    case SIGSEGV: return "SIGSEGV";
    case SIGUSR2: return "SIGUSR2";
    case SIGPIPE: return "SIGPIPE";
    case SIGALRM: return "SIGALRM";
    case SIGTERM: return "SIGTERM";
    case SIGXCPU: return "SIGXCPU";
    case SIGXFSZ: return "SIGXFSZ";
    case SIGSYS: return "SIGSYS";
    default: snprintf(other, sizeof other, "SIG%d", signo); return other;
  }
}

/* The length of the longest prefix that does not end inside a UTF-8 sequence. */
static size_t complete_utf8(const char *s, size_t end) {
  for (size_t i = end; i > 0 && i + 3 >= end; i--) {
    unsigned char c = (unsigned char)s[i - 1];
    if ((c & 0xC0) == 0x80) continue;
    size_t n = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    return (i - 1) + n > end ? i - 1 : end;
  }
  return end;
}

static void send_result(run_t *r, const char *termination, const char *spawn_error) {
  if (r->out.truncated) r->out.length = complete_utf8(r->out.data, r->out.length);
  if (r->err.truncated) r->err.length = complete_utf8(r->err.data, r->err.length);
  int exited = strcmp(termination, "exited") == 0;
  char code[24], sig[40];
  if (exited && r->exit_signal == 0) snprintf(code, sizeof code, "%d", r->exit_code);
  else strcpy(code, "null");
  if (exited && r->exit_signal != 0) snprintf(sig, sizeof sig, "\"%s\"", signal_name(r->exit_signal));
  else strcpy(sig, "null");
  char error[1200] = "";
  if (spawn_error != NULL) {
    size_t k = 0;
    k += (size_t)snprintf(error, sizeof error, ",\"spawnError\":\"");
    for (const char *p = spawn_error; *p && k < sizeof error - 8; p++) {
      unsigned char c = (unsigned char)*p;
      if (c == '"' || c == '\\') { error[k++] = '\\'; error[k++] = (char)c; }
      else if (c < 0x20) k += (size_t)snprintf(error + k, 8, "\\u%04x", c);
      else error[k++] = (char)c;
    }
    error[k++] = '"';
    error[k] = 0;
  }
  char header[1600];
  int n = snprintf(header, sizeof header,
                   "{\"type\":\"result\",\"id\":%ld,\"exitCode\":%s,\"signal\":%s,\"stdoutBytes\":%zu,"
                   "\"stdoutTruncated\":%s,\"stderrTruncated\":%s,\"durationMs\":%.3f,"
                   "\"termination\":\"%s\"%s}",
                   r->id, code, sig, r->out.length, r->out.truncated ? "true" : "false",
                   r->err.truncated ? "true" : "false", now_ms() - r->started, termination, error);
  send_frame(header, (size_t)n, &r->out, &r->err);
}

/* ---- containment: the run's processes, found in /proc ------------------------------------ */

typedef struct {
  pid_t pid, ppid;
  int seed, decided, belongs;
} proc_t;

static char *read_file(const char *path, size_t *length) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  size_t cap = 4096, len = 0;
  char *buf = xrealloc(NULL, cap);
  for (;;) {
    if (len == cap) buf = xrealloc(buf, cap *= 2);
    ssize_t n = read(fd, buf + len, cap - len);
    if (n < 0) {
      if (errno == EINTR) continue;
      free(buf);
      close(fd);
      return NULL;
    }
    if (n == 0) break;
    len += (size_t)n;
  }
  close(fd);
  *length = len;
  return buf;
}

static int environ_holds(const char *env, size_t length, const char *needle, int prefix) {
  size_t n = strlen(needle);
  for (size_t at = 0; at < length;) {
    size_t end = at;
    while (end < length && env[end] != 0) end++;
    if (end - at >= n && memcmp(env + at, needle, n) == 0 && (prefix || end - at == n)) return 1;
    at = end + 1;
  }
  return 0;
}

static int find_index(proc_t *table, size_t count, pid_t pid) {
  for (size_t i = 0; i < count; i++)
    if (table[i].pid == pid) return (int)i;
  return -1;
}

/*
 * Fills *found with the running pids of group `group` (0: none), of processes whose environment
 * holds TAG_VARIABLE=tag (prefix: starting with it; NULL: no tag), of the children of `ancestor`
 * (0: none), and of their descendants. Never this process. Returns the count.
 */
static size_t find_contained(pid_t group, const char *tag, int prefix, pid_t ancestor,
                             pid_t **found) {
  flush_replies(); /* no outcome waits behind a scan */
  *found = NULL;
  DIR *dir = opendir("/proc");
  if (dir == NULL) return 0;
  char needle[256] = "";
  if (tag != NULL) snprintf(needle, sizeof needle, TAG_VARIABLE "=%s", tag);
  size_t count = 0, cap = 256;
  proc_t *table = xrealloc(NULL, cap * sizeof *table);
  struct dirent *entry;
  char path[64];
  while ((entry = readdir(dir)) != NULL) {
    if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
    pid_t pid = (pid_t)atoi(entry->d_name);
    if (pid == getpid()) continue;
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    size_t length;
    char *stat = read_file(path, &length);
    if (stat == NULL) continue;
    stat = xrealloc(stat, length + 1);
    stat[length] = 0;
    char *close_paren = strrchr(stat, ')');
    char state = 0;
    int ppid = 0, pgrp = 0;
    if (close_paren == NULL || sscanf(close_paren + 2, "%c %d %d", &state, &ppid, &pgrp) != 3 ||
        state == 'Z' || state == 'X') {
      free(stat);
      continue;
    }
    free(stat);
    int seed = (group != 0 && pgrp == group) || (ancestor != 0 && ppid == ancestor);
    if (!seed && tag != NULL) {
      snprintf(path, sizeof path, "/proc/%d/environ", pid);
      char *env = read_file(path, &length);
      if (env != NULL) {
        seed = environ_holds(env, length, needle, prefix);
        free(env);
      }
    }
    if (count == cap) table = xrealloc(table, (cap *= 2) * sizeof *table);
    table[count++] = (proc_t){pid, (pid_t)ppid, seed, 0, 0};
  }
  closedir(dir);
  size_t result = 0;
  *found = xrealloc(NULL, (count + 1) * sizeof **found);
  for (size_t i = 0; i < count; i++) {
    /* Walk up iteratively, then record the answer along the path. */
    int answer = 0;
    size_t steps = 0;
    for (int j = (int)i; j >= 0 && steps <= count; steps++) {
      if (table[j].decided) { answer = table[j].belongs; break; }
      if (table[j].seed) { answer = 1; break; }
      if (table[j].ppid <= 1) break;
      j = find_index(table, count, table[j].ppid);
    }
    steps = 0;
    for (int j = (int)i; j >= 0 && !table[j].decided && steps <= count; steps++) {
      table[j].decided = 1;
      table[j].belongs = answer;
      if (table[j].seed || table[j].ppid <= 1) break;
      j = find_index(table, count, table[j].ppid);
    }
    if (table[i].belongs) (*found)[result++] = table[i].pid;
  }
  free(table);
  return result;
}

static size_t members_of(run_t *r, pid_t **found) {
  return find_contained(r->pid, r->escapees ? r->tag : NULL, 0, 0, found);
}

/* Signals the group and every member; returns whether anything was there. */
static int signal_run(run_t *r, int signo) {
  int group = kill(-r->pid, signo) == 0;
  pid_t *found;
  size_t n = members_of(r, &found);
  for (size_t i = 0; i < n; i++) kill(found[i], signo);
  free(found);
  return group || n > 0;
}

static int run_is_empty(run_t *r) {
  pid_t *found;
  size_t n = members_of(r, &found);
  free(found);
  return n == 0 && kill(-r->pid, 0) != 0;
}

/* ---- runs ------------------------------------------------------------------------------- */

static void close_fd(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

static void free_run(run_t *r) {
  run_t **p = &runs;
  while (*p != r) p = &(*p)->next;
  *p = r->next;
  close_fd(&r->in_fd);
  close_fd(&r->out_fd);
  close_fd(&r->err_fd);
  close_fd(&r->guard_fd);
  free(r->input);
  free(r->out.data);
  free(r->err.data);
  free(r);
}

static void finish_reaping(run_t *r) {
  free_run(r);
}

static void start_kill(run_t *r) {
  if (r->killing) return;
  r->killing = 1;
  if (!signal_run(r, SIGTERM)) {
    finish_reaping(r);
    return;
  }
  r->kill_deadline = now_ms() + r->grace_ms;
  r->next_poll = now_ms() + POLL_MS;
}

/* Settles the outcome; the run is freed once nothing of it runs. */
static void settle(run_t *r, const char *termination) {
  if (r->settled) return;
  r->settled = 1;
  int exited = strcmp(termination, "exited") == 0;
  send_result(r, termination, NULL);
  /* Nothing more is read: a daemon holding the pipes must not keep them. */
  close_fd(&r->in_fd);
  close_fd(&r->guard_fd);
  close_fd(&r->out_fd);
  close_fd(&r->err_fd);
  free(r->out.data);
  free(r->err.data);
  r->out = (output_t){0};
  r->err = (output_t){0};
  if (exited && kill(-r->pid, 0) != 0) {
    finish_reaping(r);
    return;
  }
  r->escapees = !exited;
  start_kill(r);
}

static void push_output(output_t *o, const char *data, size_t n) {
  if (o->length + n > o->limit) {
    o->truncated = 1;
    n = o->limit - o->length;
  }
  if (n == 0) return;
  if (o->length + n > o->capacity) {
    size_t cap = o->capacity ? o->capacity : 8192;
    while (cap < o->length + n) cap *= 2;
    if (cap > o->limit && o->limit >= o->length + n) cap = o->limit;
    o->data = xrealloc(o->data, cap);
    o->capacity = cap;
  }
  memcpy(o->data + o->length, data, n);
  o->length += n;
}

static void spawn_error(run_t *r, int error, const char *cwd, const char *program) {
  struct stat info;
  char message[1100];
  if ((error == ENOENT || error == ENOTDIR) && stat(cwd, &info) != 0)
    snprintf(message, sizeof message, "the working directory %s does not exist", cwd);
  else if ((error == ENOENT || error == ENOTDIR) && !S_ISDIR(info.st_mode))
    snprintf(message, sizeof message, "the working directory %s is not a directory", cwd);
  else
    snprintf(message, sizeof message, "could not start %.900s: %s", program, strerror(error));
  r->settled = 1;
  send_result(r, "spawn-error", message);
}

static char *field(char **cursor, char *end) {
  if (*cursor >= end) return NULL;
  char *start = *cursor;
  char *nul = memchr(start, 0, (size_t)(end - start));
  if (nul == NULL) return NULL; /* the sender ends every field with a NUL */
  *cursor = nul + 1;
  return start;
}

/*
 * A run is started in three steps so that the runs of one batch (the frames of one read: a
 * parallel group arrives together) can be spawned from two threads at once. posix_spawn blocks
 * its calling thread until the child has exec'd, so one thread spawns one child at a time; on a
 * machine with two cores a second spawning thread lets two execs proceed together. prepare_run
 * and finish_run run on the main thread only; spawn_job touches nothing but its own job.
 */
typedef struct {
  run_t *r;
  char **argv;          /* shell_argv, or the exec request's argv (owned) */
  char *shell_argv[4];
  int exec;             /* 1: argv[0] is run directly (posix_spawnp), no shell */
  char **envp, **extra;
  const char *cwd;
  int in[2], out[2], err[2];
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  const char *body;
  size_t body_length;
  int failed; /* posix_spawn's result */
} spawn_job_t;

static void job_fail(spawn_job_t *job, const char *message) {
  job->r->settled = 1;
  send_result(job->r, "spawn-error", message);
  if (job->exec) free(job->argv);
  free(job->envp);
  free(job->extra);
  free_run(job->r);
}

/* Creates the run, its pipes and its spawn arguments; 0 when it already failed (reply sent). */
static int prepare_run(spawn_job_t *job, char *header, size_t header_length, const char *body,
                       size_t body_length) {
  char *cursor = header, *end = header + header_length;
  int exec = memcmp(header, "exec", 5) == 0; /* else "run" */
  field(&cursor, end);
  char *id = field(&cursor, end), *timeout = field(&cursor, end), *grace = field(&cursor, end),
       *max_output = field(&cursor, end), *input_file = field(&cursor, end),
       *input_pipe = field(&cursor, end), *command = field(&cursor, end),
       *cwd = field(&cursor, end);
  if (cwd == NULL) return 0;
  char **exec_argv = NULL;
  if (exec) {
    /* `command` holds argc; the argv follows cwd. */
    long argc = atol(command);
    if (argc < 1) return 0;
    exec_argv = xrealloc(NULL, ((size_t)argc + 1) * sizeof *exec_argv);
    for (long i = 0; i < argc; i++)
      if ((exec_argv[i] = field(&cursor, end)) == NULL) {
        free(exec_argv);
        return 0;
      }
    exec_argv[argc] = NULL;
  }
  run_t *r = calloc(1, sizeof *r);
  if (r == NULL) exit(70);
  *job = (spawn_job_t){.r = r, .cwd = cwd, .body = body, .body_length = body_length,
                       .exec = exec, .argv = exec ? exec_argv : NULL};
  job->in[0] = job->in[1] = -1;
  r->id = atol(id);
  r->started = now_ms();
  r->in_fd = r->out_fd = r->err_fd = r->guard_fd = -1;
  r->grace_ms = *grace ? atof(grace) : DEFAULT_GRACE_MS;
  if (r->grace_ms > max_grace) max_grace = r->grace_ms;
  size_t limit = *max_output ? (size_t)atoll(max_output) : DEFAULT_MAX_OUTPUT;
  r->out.limit = r->err.limit = limit;
  r->deadline = r->started + atof(timeout);
  r->next = runs;
  runs = r;
  snprintf(r->tag, sizeof r->tag, "%s.%ld", scope, next_tag++);

  /* Environment: ours, then the run's NAME=VALUE overrides, then the tag. */
  size_t base = 0;
  while (environ[base]) base++;
  size_t extras = 0;
  for (char *pair; (pair = field(&cursor, end)) != NULL;) {
    job->extra = xrealloc(job->extra, (extras + 1) * sizeof *job->extra);
    job->extra[extras++] = pair;
  }
  char **extra = job->extra;
  snprintf(r->tag_entry, sizeof r->tag_entry, TAG_VARIABLE "=%s", r->tag);
  char **envp = job->envp = xrealloc(NULL, (base + extras + 2) * sizeof *envp);
  size_t k = 0;
  for (size_t i = 0; i < base; i++) {
    const char *eq = strchr(environ[i], '=');
    size_t name = eq ? (size_t)(eq - environ[i] + 1) : strlen(environ[i]);
    int overridden = strncmp(environ[i], TAG_VARIABLE "=", sizeof TAG_VARIABLE) == 0;
    for (size_t j = 0; j < extras && !overridden; j++)
      overridden = strncmp(extra[j], environ[i], name) == 0;
    if (!overridden) envp[k++] = environ[i];
  }
  for (size_t j = 0; j < extras; j++) envp[k++] = extra[j];
  envp[k++] = r->tag_entry;
  envp[k] = NULL;

  char message[1200];
  int *in = job->in;
  if (*input_file) {
    /* A large payload as a file (the Node runner's way): the hook reads it as stdin. */
    in[0] = open(input_file, O_RDONLY | O_CLOEXEC);
    if (in[0] < 0) {
      snprintf(message, sizeof message, "could not open the stdin payload file: %s", strerror(errno));
      job_fail(job, message);
      return 0;
    }
    unlink(input_file);
  } else if (*input_pipe) {
    /*
     * A large payload through a FIFO the parent writes into directly: the bytes cross one pipe,
     * as from a shell, and the hook reads while the parent writes. The FIFO's read end becomes
     * the hook's stdin; until the parent has opened the write end (it says "opened"), this
     * process holds one (guard_fd), so a hook reading early waits instead of seeing end-of-file.
     */
    if (mkfifo(input_pipe, 0600) != 0 ||
        (in[0] = open(input_pipe, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0 ||
        (r->guard_fd = open(input_pipe, O_WRONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
      snprintf(message, sizeof message, "could not create the stdin pipe %s: %s", input_pipe,
               strerror(errno));
      if (in[0] >= 0) close(in[0]);
      unlink(input_pipe);
      job_fail(job, message);
      return 0;
    }
    fcntl(in[0], F_SETFL, fcntl(in[0], F_GETFL) & ~O_NONBLOCK); /* the hook's stdin blocks */
#ifdef F_SETPIPE_SZ
    fcntl(in[0], F_SETPIPE_SZ, 1024 * 1024); /* fewer wake-ups for the writer; best effort */
#endif
  } else if (pipe2(in, O_CLOEXEC)) {
    snprintf(message, sizeof message, "could not start /bin/sh: %s", strerror(errno));
    job_fail(job, message);
    return 0;
  }
  if (pipe2(job->out, O_CLOEXEC) || pipe2(job->err, O_CLOEXEC)) {
    snprintf(message, sizeof message, "could not start /bin/sh: %s", strerror(errno));
    if (job->out[0] > 0) { close(job->out[0]); close(job->out[1]); }
    close(in[0]);
    if (in[1] >= 0) close(in[1]);
    job_fail(job, message);
    return 0;
  }
  posix_spawn_file_actions_init(&job->actions);
  posix_spawn_file_actions_adddup2(&job->actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&job->actions, job->out[1], 1);
  posix_spawn_file_actions_adddup2(&job->actions, job->err[1], 2);
  posix_spawn_file_actions_addchdir_np(&job->actions, cwd);
  posix_spawnattr_init(&job->attributes);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  sigdelset(&all, SIGKILL);
  sigdelset(&all, SIGSTOP);
  posix_spawnattr_setsigmask(&job->attributes, &none);
  posix_spawnattr_setsigdefault(&job->attributes, &all);
  /* Its own session (so its own process group), as Node's `detached: true` gives the Node helper. */
#ifdef POSIX_SPAWN_SETSID
  short group_flag = POSIX_SPAWN_SETSID;
#else
  short group_flag = POSIX_SPAWN_SETPGROUP;
  posix_spawnattr_setpgroup(&job->attributes, 0);
#endif
  posix_spawnattr_setflags(&job->attributes,
                           group_flag | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  if (!exec) {
    job->argv = job->shell_argv;
    job->argv[0] = "/bin/sh";
    job->argv[1] = "-c";
    job->argv[2] = command;
    job->argv[3] = NULL;
  }
  return 1;
}

/* The only step that may run on the spawning thread: it writes job->r->pid and job->failed. */
static void spawn_job(spawn_job_t *job) {
  job->failed =
      job->exec
          ? posix_spawnp(&job->r->pid, job->argv[0], &job->actions, &job->attributes, job->argv,
                         job->envp)
          : posix_spawn(&job->r->pid, "/bin/sh", &job->actions, &job->attributes, job->argv,
                        job->envp);
}

static void finish_run(spawn_job_t *job) {
  run_t *r = job->r;
  posix_spawn_file_actions_destroy(&job->actions);
  posix_spawnattr_destroy(&job->attributes);
  free(job->envp);
  free(job->extra);
  close(job->in[0]);
  close(job->out[1]);
  close(job->err[1]);
  if (job->failed) {
    if (job->in[1] >= 0) close(job->in[1]);
    close(job->out[0]);
    close(job->err[0]);
    spawn_error(r, job->failed, job->cwd, job->exec ? job->argv[0] : "/bin/sh");
    if (job->exec) free(job->argv);
    free_run(r);
    return;
  }
  if (job->exec) free(job->argv);
  r->in_fd = job->in[1];
  r->out_fd = job->out[0];
  r->err_fd = job->err[0];
  if (r->in_fd >= 0) fcntl(r->in_fd, F_SETFL, O_NONBLOCK);
  if (r->in_fd < 0) {
    /* stdin is the payload file or the parent's FIFO */
  } else if (job->body_length > 0) {
    r->input = xrealloc(NULL, job->body_length);
    memcpy(r->input, job->body, job->body_length);
    r->input_length = job->body_length;
  } else {
    close_fd(&r->in_fd);
  }
  char started[96];
  int n = snprintf(started, sizeof started, "{\"type\":\"started\",\"id\":%ld,\"processId\":%d}",
                   r->id, r->pid);
  send_frame(started, (size_t)n, NULL, NULL);
}

/* ---- the second spawning thread --------------------------------------------------------- */

#define MAX_BATCH 64
static spawn_job_t batch[MAX_BATCH];
static size_t batch_count;
static spawn_job_t *worker_jobs;
static size_t worker_count;
static sem_t worker_go, worker_done;
static int worker_state; /* 0: not started, 1: running, -1: could not start (spawn alone) */

static void wait_semaphore(sem_t *semaphore) {
  while (sem_wait(semaphore) != 0 && errno == EINTR) {}
}

static void *worker_main(void *unused) {
  (void)unused;
  for (;;) {
    wait_semaphore(&worker_go);
    for (size_t i = 0; i < worker_count; i++) spawn_job(&worker_jobs[i]);
    sem_post(&worker_done);
  }
  return NULL;
}

static int worker_ready(void) {
  if (worker_state != 0) return worker_state > 0;
  worker_state = -1;
  if (sem_init(&worker_go, 0, 0) != 0 || sem_init(&worker_done, 0, 0) != 0) return 0;
  /* Signals stay with the main thread: the worker starts with all of them blocked. */
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, &previous);
  pthread_t thread;
  int failed = pthread_create(&thread, NULL, worker_main, NULL);
  pthread_sigmask(SIG_SETMASK, &previous, NULL);
  if (failed) return 0;
  pthread_detach(thread);
  worker_state = 1;
  return 1;
}

/* Spawns the prepared batch, the second half on the worker while this thread spawns the first. */
static void flush_batch(void) {
  if (batch_count == 0) return;
  size_t mine = batch_count;
  if (batch_count >= 2 && worker_ready()) {
    mine = (batch_count + 1) / 2;
    worker_jobs = batch + mine;
    worker_count = batch_count - mine;
    sem_post(&worker_go);
  }
  for (size_t i = 0; i < mine; i++) spawn_job(&batch[i]);
  if (mine < batch_count) wait_semaphore(&worker_done);
  for (size_t i = 0; i < batch_count; i++) finish_run(&batch[i]);
  batch_count = 0;
}

static void start_run(char *header, size_t header_length, const char *body, size_t body_length) {
  if (prepare_run(&batch[batch_count], header, header_length, body, body_length)) batch_count++;
  if (batch_count == MAX_BATCH) flush_batch();
}

static run_t *run_by_id(long id) {
  for (run_t *r = runs; r; r = r->next)
    if (r->id == id) return r;
  return NULL;
}

static void on_frame(char *header, size_t header_length, const char *body, size_t body_length) {
  if ((header_length >= 4 && memcmp(header, "run", 4) == 0) ||
      (header_length >= 5 && memcmp(header, "exec", 5) == 0)) {
    start_run(header, header_length, body, body_length);
    return;
  }
  flush_batch(); /* requests take effect in order */
  if (header_length >= 7 && memcmp(header, "cancel", 7) == 0) {
    run_t *r = run_by_id(atol(header + 7));
    if (r && !r->settled) settle(r, r->leader_exited ? "exited" : "aborted");
  } else if (header_length >= 7 && memcmp(header, "opened", 7) == 0) {
    run_t *r = run_by_id(atol(header + 7));
    if (r) close_fd(&r->guard_fd);
  }
}

static uint32_t get_u32(const char *p) {
  const unsigned char *u = (const unsigned char *)p;
  return ((uint32_t)u[0] << 24) | ((uint32_t)u[1] << 16) | ((uint32_t)u[2] << 8) | u[3];
}

static void read_requests(void) {
  if (in_capacity - in_length < 65536) in_buffer = xrealloc(in_buffer, in_capacity = in_capacity * 2 + 65536);
  ssize_t n = read(0, in_buffer + in_length, in_capacity - in_length);
  if (n < 0 && errno == EINTR) return;
  if (n <= 0) {
    stdin_ended = 1;
    return;
  }
  in_length += (size_t)n;
  size_t at = 0;
  while (in_length - at >= 8) {
    uint32_t header_length = get_u32(in_buffer + at), body_length = get_u32(in_buffer + at + 4);
    size_t frame = 8 + (size_t)header_length + body_length;
    if (in_length - at < frame) {
      if (frame > in_capacity) {
        memmove(in_buffer, in_buffer + at, in_length - at);
        in_length -= at;
        at = 0;
        in_buffer = xrealloc(in_buffer, in_capacity = frame + 65536);
      }
      break;
    }
    char *header = in_buffer + at + 8;
    on_frame(header, header_length, header + header_length, body_length);
    at += frame;
  }
  flush_batch(); /* before the buffer moves: the batch points into it */
  memmove(in_buffer, in_buffer + at, in_length - at);
  in_length -= at;
}

static void drain(run_t *r, int *fd, output_t *o) {
  char chunk[65536];
  for (;;) {
    ssize_t n = read(*fd, chunk, sizeof chunk);
    if (n > 0) {
      if (!r->settled) push_output(o, chunk, (size_t)n);
      if (n < (ssize_t)sizeof chunk) return;
      continue;
    }
    if (n < 0 && (errno == EINTR)) continue;
    if (n < 0 && errno == EAGAIN) return;
    close_fd(fd);
    return;
  }
}

static void check_streams(run_t *r) {
  if (!r->settled && r->leader_exited && r->out_fd < 0 && r->err_fd < 0) settle(r, "exited");
}

static void reap_children(void) {
  int status;
  pid_t pid;
  while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
    for (run_t *r = runs; r; r = r->next) {
      if (r->pid != pid) continue;
      r->leader_exited = 1;
      if (WIFEXITED(status)) r->exit_code = WEXITSTATUS(status);
      else if (WIFSIGNALED(status)) r->exit_signal = WTERMSIG(status);
      if (!r->settled) {
        if (r->out_fd < 0 && r->err_fd < 0) settle(r, "exited");
        else r->drain_deadline = now_ms() + DRAIN_WINDOW_MS;
      }
      break;
    }
  }
}

static void on_sigchld(int signo) {
  (void)signo;
  int saved = errno;
  if (write(sigchld_pipe[1], "c", 1) < 0) { /* full: a wake-up is pending anyway */ }
  errno = saved;
}

static void on_stop(int signo) {
  (void)signo;
  stop_requested = 1;
  on_sigchld(0);
}

/* At exit: everything tagged with our scope, and everything below us (as a subreaper, orphans of
 * hooks that cleared their environment are our children too). */
static void kill_scope_and_exit(void) {
  flush_replies();
  char prefix[200];
  snprintf(prefix, sizeof prefix, "%s.", scope);
  pid_t *found;
  size_t n = find_contained(0, prefix, 1, getpid(), &found);
  if (n > 0) {
    for (size_t i = 0; i < n; i++) kill(found[i], SIGTERM);
    double deadline = now_ms() + max_grace;
    while (n > 0 && now_ms() < deadline) {
      usleep(25000);
      reap_children();
      free(found);
      n = find_contained(0, prefix, 1, getpid(), &found);
    }
    for (int round = 0; round < 2 && n > 0; round++) {
      for (size_t i = 0; i < n; i++) kill(found[i], SIGKILL);
      free(found);
      n = find_contained(0, prefix, 1, getpid(), &found);
    }
  }
  free(found);
  exit(0);
}

/* ---- reaper mode (see the header) ---- */

static volatile sig_atomic_t reaper_stop;

static void on_reaper_stop(int signo) {
  (void)signo;
  reaper_stop = 1;
  on_sigchld(0);
}

/* Reaps every exited child, keeping `program`'s status in *status (and *done = 1). */
static void reaper_reap(pid_t program, int *status, int *done) {
  int st;
  pid_t pid;
  while ((pid = waitpid(-1, &st, WNOHANG)) > 0)
    if (pid == program) {
      *status = st;
      *done = 1;
    }
}

/* SIGTERM to every process below us, SIGKILL to what is left after grace_ms. */
static void reaper_kill_below(double grace_ms, pid_t program, int *status, int *done) {
  pid_t *found;
  size_t n = find_contained(0, NULL, 0, getpid(), &found);
  if (n > 0) {
    for (size_t i = 0; i < n; i++) kill(found[i], SIGTERM);
    double deadline = now_ms() + grace_ms;
    while (n > 0 && now_ms() < deadline) {
      usleep(20000);
      reaper_reap(program, status, done);
      free(found);
      n = find_contained(0, NULL, 0, getpid(), &found);
    }
    for (int round = 0; round < 3 && n > 0; round++) {
      for (size_t i = 0; i < n; i++) kill(found[i], SIGKILL);
      usleep(5000);
      reaper_reap(program, status, done);
      free(found);
      n = find_contained(0, NULL, 0, getpid(), &found);
    }
  }
  free(found);
}

static const char *errno_code(int error) {
  switch (error) {
    case ENOENT: return "ENOENT";
    case EACCES: return "EACCES";
    case ENOTDIR: return "ENOTDIR";
    case ENOEXEC: return "ENOEXEC";
    default: return "";
  }
}

static int reaper_main(int argc, char **argv) {
  if (argc < 4) {
    fputs("usage: hookwire-spawn --reaper GRACE_MS PROGRAM [ARG...]\n", stderr);
    return 64;
  }
  double grace = atof(argv[2]);
  if (grace <= 0) grace = DEFAULT_GRACE_MS;
#ifdef PR_SET_CHILD_SUBREAPER
  prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
  /* fd 3: hookwire's end of life. Never inherited by PROGRAM. */
  int control = fcntl(3, F_GETFD) >= 0 ? 3 : -1;
  if (control >= 0) fcntl(control, F_SETFD, FD_CLOEXEC);
  if (pipe2(sigchld_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return 71;
  sigset_t all, previous;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &previous);
  struct sigaction action = {0};
  action.sa_handler = on_sigchld;
  action.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  sigaction(SIGCHLD, &action, NULL);
  action.sa_handler = on_reaper_stop;
  action.sa_flags = 0;
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGINT, &action, NULL);
  sigaction(SIGHUP, &action, NULL);
  pid_t reaper = getpid();
  pid_t program = fork();
  if (program < 0) return 71;
  if (program == 0) {
    struct sigaction fallback = {0};
    fallback.sa_handler = SIG_DFL;
    sigaction(SIGCHLD, &fallback, NULL);
    sigaction(SIGTERM, &fallback, NULL);
    sigaction(SIGINT, &fallback, NULL);
    sigaction(SIGHUP, &fallback, NULL);
    sigaction(SIGPIPE, &fallback, NULL);
#ifdef PR_SET_PDEATHSIG
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* killing the reaper is killing PROGRAM */
#endif
    sigprocmask(SIG_SETMASK, &previous, NULL);
    if (getppid() != reaper) _exit(70); /* the reaper died before the exec */
    execvp(argv[3], argv + 3);
    int error = errno;
    dprintf(2, "hookwire-spawn: spawn %s %s (%s)\n", argv[3], errno_code(error), strerror(error));
    _exit(error == ENOENT ? 127 : 126);
  }
  sigprocmask(SIG_SETMASK, &previous, NULL);
  int status = 0, done = 0;
  for (;;) {
    reaper_reap(program, &status, &done);
    if (done || reaper_stop) break;
    struct pollfd fds[2] = {{sigchld_pipe[0], POLLIN, 0}, {control, POLLIN, 0}};
    int ready = poll(fds, control >= 0 ? 2 : 1, -1);
    if (ready < 0 && errno != EINTR) break;
    char sink[64];
    while (read(sigchld_pipe[0], sink, sizeof sink) > 0) {}
    if (control >= 0 && fds[1].revents != 0) {
      ssize_t n = read(control, sink, sizeof sink);
      if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) break; /* hookwire let go */
    }
  }
  reaper_kill_below(grace, program, &status, &done);
  if (!done && waitpid(program, &status, 0) == program) done = 1;
  if (done && WIFSIGNALED(status)) {
    int signo = WTERMSIG(status);
    signal(signo, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, signo);
    sigprocmask(SIG_UNBLOCK, &only, NULL);
    kill(getpid(), signo);
    return 128 + signo;
  }
  return done && WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "--reaper") == 0) return reaper_main(argc, argv);
  if (argc < 2) {
    fputs("usage: hookwire-spawn SCOPE\n", stderr);
    return 64;
  }
  scope = argv[1];
#ifdef PR_SET_CHILD_SUBREAPER
  prctl(PR_SET_CHILD_SUBREAPER, 1);
#endif
  signal(SIGPIPE, SIG_IGN);
  if (pipe2(sigchld_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return 71;
  struct sigaction action = {0};
  action.sa_handler = on_sigchld;
  action.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  sigaction(SIGCHLD, &action, NULL);
  action.sa_handler = on_stop;
  action.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &action, NULL);
  sigaction(SIGINT, &action, NULL);
  sigaction(SIGHUP, &action, NULL);

  struct pollfd *fds = NULL;
  run_t **owners = NULL;
  size_t fds_capacity = 0;
  int shutting_down = 0;
  for (;;) {
    if ((stdin_ended || stop_requested) && !shutting_down) {
      shutting_down = 1;
      if (max_grace == 0) max_grace = DEFAULT_GRACE_MS;
      for (run_t *r = runs, *next; r; r = next) {
        next = r->next;
        if (!r->settled) settle(r, r->leader_exited ? "exited" : "aborted");
      }
    }
    if (shutting_down && runs == NULL) kill_scope_and_exit();

    size_t count = 0, needed = 2;
    for (run_t *r = runs; r; r = r->next) needed += 3;
    if (needed > fds_capacity) {
      fds_capacity = needed * 2;
      fds = xrealloc(fds, fds_capacity * sizeof *fds);
      owners = xrealloc(owners, fds_capacity * sizeof *owners);
    }
    fds[count] = (struct pollfd){sigchld_pipe[0], POLLIN, 0};
    owners[count++] = NULL;
    if (!stdin_ended) {
      fds[count] = (struct pollfd){0, POLLIN, 0};
      owners[count++] = NULL;
    }
    double t = now_ms(), wake = t + 60000;
    for (run_t *r = runs; r; r = r->next) {
      if (r->in_fd >= 0) { fds[count] = (struct pollfd){r->in_fd, POLLOUT, 0}; owners[count++] = r; }
      if (r->out_fd >= 0) { fds[count] = (struct pollfd){r->out_fd, POLLIN, 0}; owners[count++] = r; }
      if (r->err_fd >= 0) { fds[count] = (struct pollfd){r->err_fd, POLLIN, 0}; owners[count++] = r; }
      if (!r->settled) {
        if (r->deadline < wake) wake = r->deadline;
        if (r->leader_exited && r->drain_deadline < wake) wake = r->drain_deadline;
      } else if (r->killing) {
        if (r->next_poll < wake) wake = r->next_poll;
        if (r->kill_deadline < wake) wake = r->kill_deadline;
      }
    }
    int timeout = wake <= t ? 0 : (int)(wake - t) + 1;
    flush_replies();
    int ready = poll(fds, count, timeout);
    if (ready < 0 && errno != EINTR) return 72;
    for (size_t i = 0; ready > 0 && i < count; i++) {
      if (fds[i].revents == 0) continue;
      run_t *r = owners[i];
      if (r == NULL) {
        if (fds[i].fd == sigchld_pipe[0]) {
          char sink[64];
          while (read(sigchld_pipe[0], sink, sizeof sink) > 0) {}
          reap_children();
        } else {
          read_requests();
        }
        continue;
      }
      int still_there = 0;
      for (run_t *s = runs; s; s = s->next) still_there |= s == r;
      if (!still_there) continue;
      if (fds[i].fd == r->in_fd) {
        ssize_t n = write(r->in_fd, r->input + r->input_written, r->input_length - r->input_written);
        if (n > 0) r->input_written += (size_t)n;
        if ((n < 0 && errno != EAGAIN && errno != EINTR) || r->input_written == r->input_length) {
          close_fd(&r->in_fd); /* done, or EPIPE: a hook may ignore its stdin */
          free(r->input);
          r->input = NULL;
        }
      } else if (fds[i].fd == r->out_fd) {
        drain(r, &r->out_fd, &r->out);
        check_streams(r);
      } else if (fds[i].fd == r->err_fd) {
        drain(r, &r->err_fd, &r->err);
        check_streams(r);
      }
    }
    t = now_ms();
    for (run_t *r = runs, *next; r; r = next) {
      next = r->next;
      if (!r->settled) {
        if (t >= r->deadline) settle(r, r->leader_exited ? "exited" : "timeout");
        else if (r->leader_exited && t >= r->drain_deadline) settle(r, "exited");
      } else if (r->killing) {
        if (t >= r->kill_deadline) {
          for (int round = 0; round < 3 && signal_run(r, SIGKILL); round++) {}
          finish_reaping(r);
        } else if (t >= r->next_poll) {
          if (run_is_empty(r)) finish_reaping(r);
          else r->next_poll = t + POLL_MS;
        }
      }
    }
  }
}
