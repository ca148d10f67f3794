/*
 * hookwire-relay: the native relay client (docs/decisions/0035-relay-and-daemon.md).
 *
 *   hookwire-relay TOOL[:EVENT] NODE ENTRY   (what `hookwire relay install` writes into a tool's
 *                                             settings; EVENT for Copilot CLI, whose payloads do
 *                                             not name theirs)
 *
 * Reads the calling tool's hook payload on stdin, hands it to the project's hookwire daemon over
 * its Unix socket ($XDG_RUNTIME_DIR/hookwire/<fnv1a64(project real path)>.sock, else
 * /tmp/hookwire-<uid>/…; the directory must be the user's own, mode 0700), and prints the
 * daemon's answer (stdout, stderr, exit code). No daemon (no socket, a dead one's socket, one of
 * another build): runs `NODE ENTRY daemon start --cwd PROJECT` once and asks again. Still none:
 * an event that can deny an action (PreToolUse, PermissionRequest, UserPromptSubmit; Gemini CLI's
 * BeforeTool, BeforeAgent) is blocked (exit 2, the reason on stderr); any other passes (exit 0).
 * The wire is `relay-protocol.ts`'s; the build is the size and mtime (ns) of ENTRY.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct buffer {
  char *data;
  size_t length, capacity;
};

static void append(struct buffer *buffer, const char *data, size_t length) {
  if (buffer->length + length + 1 > buffer->capacity) {
    size_t capacity = buffer->capacity == 0 ? 65536 : buffer->capacity;
    while (buffer->length + length + 1 > capacity) capacity *= 2;
    char *grown = realloc(buffer->data, capacity);
    if (grown == NULL) {
      fputs("hookwire relay: out of memory\n", stderr);
      exit(2);
    }
    buffer->data = grown;
    buffer->capacity = capacity;
  }
  memcpy(buffer->data + buffer->length, data, length);
  buffer->length += length;
  buffer->data[buffer->length] = '\0';
}

static int read_all(int fd, struct buffer *buffer) {
  char chunk[65536];
  for (;;) {
    ssize_t got = read(fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return -1;
    if (got == 0) return 0;
    append(buffer, chunk, (size_t)got);
  }
}

static int write_all(int fd, const char *data, size_t length) {
  while (length > 0) {
    ssize_t put = write(fd, data, length);
    if (put < 0 && errno == EINTR) continue;
    if (put < 0) return -1;
    data += put;
    length -= (size_t)put;
  }
  return 0;
}

static const char *tool;
static struct buffer payload;

/*
 * HOOKWIRE_RELAY_DEBUG=FILE appends one line per step (wall-clock µs, pid, step) to FILE, so a
 * relayed event's time can be split between the calling tool, this client and the daemon (whose
 * own lines go to the same file).
 */
static const char *debug_file;
static void debug(const char *step) {
  if (debug_file == NULL || *debug_file == '\0') return;
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  char line[256];
  int length = snprintf(line, sizeof line, "%lld.%06ld client %d %s\n", (long long)now.tv_sec,
                        now.tv_nsec / 1000, (int)getpid(), step);
  int fd = open(debug_file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) return;
  if (length > 0) write_all(fd, line, (size_t)length);
  close(fd);
}
static char event[128];

/* The payload's hook_event_name (a plain name: letters only), or "". */
static void find_event(void) {
  const char *key = strstr(payload.data == NULL ? "" : payload.data, "\"hook_event_name\"");
  if (key == NULL) return;
  const char *at = key + strlen("\"hook_event_name\"");
  while (*at == ' ' || *at == '\t' || *at == '\n' || *at == '\r' || *at == ':') at++;
  if (*at != '"') return;
  at++;
  size_t length = 0;
  while (at[length] != '"' && at[length] != '\0' && length + 1 < sizeof event) length++;
  memcpy(event, at, length);
  event[length] = '\0';
}

/*
 * The events whose answer can deny an action, in every served tool's names: Claude Code's and
 * Codex's, Gemini CLI's, Copilot CLI's, Cursor's.
 */
static int can_deny(void) {
  static const char *const denying[] = {"PreToolUse",          "PermissionRequest",
                                        "UserPromptSubmit",    "BeforeTool",
                                        "BeforeAgent",         "preToolUse",
                                        "permissionRequest",   "userPromptSubmitted",
                                        "beforeShellExecution", "beforeMCPExecution",
                                        "beforeReadFile",      "beforeSubmitPrompt",
                                        NULL};
  for (int index = 0; denying[index] != NULL; index++)
    if (strcmp(event, denying[index]) == 0) return 1;
  return 0;
}

static void unreachable(const char *why) {
  if (!can_deny()) exit(0);
  fprintf(stderr,
          "hookwire relay: blocked because hookwire's hooks could not run (%s); the action is "
          "denied rather than allowed unchecked\n",
          why);
  exit(2);
}

static uint64_t fnv1a64(const char *text) {
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (const unsigned char *at = (const unsigned char *)text; *at != '\0'; at++) {
    hash ^= *at;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

/* 0: answered (printed, exit code in *exit_code); 1: stale daemon; -1: none reachable. */
static int exchange(const char *socket_path, const char *header, int *exit_code) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  strncpy(address.sun_path, socket_path, sizeof address.sun_path - 1);
  if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
    close(fd);
    return -1;
  }
  if (write_all(fd, header, strlen(header)) != 0 ||
      write_all(fd, payload.data == NULL ? "" : payload.data, payload.length) != 0) {
    close(fd);
    return -1;
  }
  shutdown(fd, SHUT_WR);
  debug("sent");
  struct buffer answer = {0};
  int failed = read_all(fd, &answer);
  close(fd);
  if (failed != 0 || answer.length == 0) return -1;
  char *newline = memchr(answer.data, '\n', answer.length);
  if (newline == NULL) return -1;
  if (strncmp(answer.data, "stale ", 6) == 0) return 1;
  int code;
  size_t stdout_length;
  if (sscanf(answer.data, "ok %d %zu", &code, &stdout_length) != 2) return -1;
  const char *body = newline + 1;
  size_t body_length = answer.length - (size_t)(body - answer.data);
  if (stdout_length > body_length) return -1;
  write_all(1, body, stdout_length);
  write_all(2, body + stdout_length, body_length - stdout_length);
  *exit_code = code;
  return 0;
}

static int connectable(const char *socket_path) {
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return 0;
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  strncpy(address.sun_path, socket_path, sizeof address.sun_path - 1);
  int ok = connect(fd, (struct sockaddr *)&address, sizeof address) == 0;
  close(fd);
  return ok;
}

/* Runs NODE ENTRY daemon start --cwd PROJECT; 0 when it says a daemon answers. */
static int start_daemon(const char *node, const char *entry, const char *project) {
  pid_t child = fork();
  if (child < 0) return -1;
  if (child == 0) {
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
      dup2(null, 0);
      dup2(null, 1);
    }
    execl(node, node, entry, "daemon", "start", "--cwd", project, (char *)NULL);
    _exit(127);
  }
  int status;
  while (waitpid(child, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fputs("usage: hookwire-relay TOOL NODE ENTRY (written by hookwire relay install)\n", stderr);
    return 2;
  }
  tool = argv[1];
  const char *node = argv[2], *entry = argv[3];
  debug_file = getenv("HOOKWIRE_RELAY_DEBUG");
  debug("start");
  if (read_all(0, &payload) != 0) unreachable("could not read the payload");
  debug("stdin read");
  /* TOOL or TOOL:EVENT (Copilot CLI's payloads do not name their event: its entries do). */
  const char *named = strchr(tool, ':');
  if (named != NULL) {
    snprintf(event, sizeof event, "%s", named + 1);
  } else {
    find_event();
  }
  size_t tool_length = named == NULL ? strlen(tool) : (size_t)(named - tool);

  /* The calling tool's project variable (Codex and Copilot CLI run hooks in the project). */
  const char *variable = NULL;
  if (tool_length == 6 && strncmp(tool, "gemini", 6) == 0) variable = "GEMINI_PROJECT_DIR";
  else if (tool_length == 6 && strncmp(tool, "claude", 6) == 0) variable = "CLAUDE_PROJECT_DIR";
  else if (tool_length == 6 && strncmp(tool, "cursor", 6) == 0) variable = "CURSOR_PROJECT_DIR";
  const char *project = variable == NULL ? NULL : getenv(variable);
  if (project == NULL || *project == '\0') project = getenv("HOOKWIRE_PROJECT_DIR");
  char cwd[PATH_MAX];
  if (project == NULL || *project == '\0') project = getcwd(cwd, sizeof cwd);
  char real[PATH_MAX];
  if (project == NULL || realpath(project, real) == NULL) unreachable("no project directory");

  char directory[PATH_MAX];
  const char *runtime = getenv("XDG_RUNTIME_DIR");
  if (runtime != NULL && *runtime != '\0')
    snprintf(directory, sizeof directory, "%s/hookwire", runtime);
  else
    snprintf(directory, sizeof directory, "/tmp/hookwire-%u", (unsigned)getuid());
  struct stat info;
  if (lstat(directory, &info) == 0 &&
      (!S_ISDIR(info.st_mode) || info.st_uid != getuid() || (info.st_mode & 077) != 0))
    unreachable("the runtime directory is not the user's own with mode 0700");
  char socket_path[PATH_MAX];
  snprintf(socket_path, sizeof socket_path, "%s/%016llx.sock", directory,
           (unsigned long long)fnv1a64(real));

  if (stat(entry, &info) != 0) unreachable("hookwire's CLI entry file is missing");
  char header[256];
  snprintf(header, sizeof header, "HWR1 %lld-%lld %s\n", (long long)info.st_size,
           (long long)info.st_mtim.tv_sec * 1000000000LL + (long long)info.st_mtim.tv_nsec, tool);

  int code = 0;
  for (int attempt = 0; attempt < 2; attempt++) {
    int outcome = exchange(socket_path, header, &code);
    debug(outcome == 0 ? "answered" : outcome == 1 ? "stale daemon" : "no daemon");
    if (outcome == 0) return code;
    if (attempt == 1) break;
    if (outcome == 1) {
      /* A daemon of another build: it stops once it has answered; wait (bounded) for that. */
      for (int wait = 0; wait < 500 && connectable(socket_path); wait++) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
      }
    }
    debug("starting the daemon");
    if (start_daemon(node, entry, real) != 0) break;
  }
  unreachable("no hookwire daemon answers for this project");
  return 2;
}
