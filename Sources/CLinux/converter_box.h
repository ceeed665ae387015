// The box a document converter (pandoc, pdftotext) runs in: its own process group, killed
// with the thread that started it, CPU/memory/file-size limits, no sockets, and (where the
// kernel has landlock) reads only of the system's directories, its input and its scratch
// directory. Converters parse documents from USB sticks; one ran to 11.8 GB and outlived
// the kiosk, and any of them runs as the kiosk, next to the recordings.
//
// Written in C because everything between fork and execve must be async-signal-safe in
// a multi-threaded process: the child below makes only system calls.
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif
#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif
// Linux's own values: glibc names these only under _GNU_SOURCE, which Swift's importer
// does not define.
#ifndef O_PATH
#define O_PATH 010000000
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef __NR_close_range
#define __NR_close_range 436
#endif

/// The landlock ABI the running kernel offers; 0 when it has none or it is disabled.
static inline int rig_landlock_abi(void) {
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi < 0 ? 0 : (int)abi;
}

/// Every filesystem access the kernel's landlock knows: what the ruleset forbids unless a
/// rule allows it.
static inline unsigned long long rig_landlock_handled(int abi) {
    unsigned long long rights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE
        | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR
        | LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR
        | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO
        | LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
#ifdef LANDLOCK_ACCESS_FS_REFER
    if (abi >= 2) rights |= LANDLOCK_ACCESS_FS_REFER;
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
    if (abi >= 3) rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
#ifdef LANDLOCK_ACCESS_FS_IOCTL_DEV
    if (abi >= 5) rights |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
#endif
    return rights;
}

/// Reading and running: what the converter may do with the system's files and its input.
#define RIG_LANDLOCK_READ (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)

/// Allows `rights` beneath `path` (or on it, for a file). A path that does not exist is
/// skipped: the list names directories some systems lack (/lib64).
static inline int rig_landlock_allow(int ruleset, const char *path, unsigned long long rights) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return 0;
    struct stat info;
    if (fstat(fd, &info) == 0 && !S_ISDIR(info.st_mode)) {
        // A file takes only the rights that apply to files; others make the rule invalid.
        unsigned long long file_rights = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE
            | LANDLOCK_ACCESS_FS_WRITE_FILE;
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
        file_rights |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
#ifdef LANDLOCK_ACCESS_FS_IOCTL_DEV
        file_rights |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
#endif
        rights &= file_rights;
    }
    struct landlock_path_beneath_attr rule = { .allowed_access = rights, .parent_fd = fd };
    long done = syscall(__NR_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    int saved = errno;
    close(fd);
    errno = saved;
    return done < 0 ? -1 : 0;
}

/// A landlock ruleset (a close-on-exec descriptor) that lets a process read and run files
/// beneath the `readable` paths and do anything beneath the `writable` ones, and nothing
/// else; -1 when the kernel has no landlock. Both lists end with NULL. Built here, before
/// fork, so the child only has to apply it.
static inline int rig_landlock_ruleset(const char *const *readable, const char *const *writable) {
    int abi = rig_landlock_abi();
    if (abi < 1) return -1;
    unsigned long long handled = rig_landlock_handled(abi);
    struct landlock_ruleset_attr attr = { .handled_access_fs = handled };
    int ruleset = (int)syscall(__NR_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (ruleset < 0) return -1;
    for (; readable && *readable; readable++) {
        if (rig_landlock_allow(ruleset, *readable, handled & RIG_LANDLOCK_READ) < 0) goto fail;
    }
    for (; writable && *writable; writable++) {
        if (rig_landlock_allow(ruleset, *writable, handled) < 0) goto fail;
    }
    return ruleset;
fail:
    close(ruleset);
    return -1;
}

#if defined(__x86_64__)
#define RIG_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define RIG_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "converter_box.h: add this architecture's AUDIT_ARCH"
#endif

/// Installs a seccomp filter under which socket() fails with EACCES for every address
/// family (pandoc and pdftotext open none; an AF_UNIX one could reach the kiosk's control
/// socket) and io_uring, which can open sockets without socket(), cannot be set up.
/// Namespaces would do it too, but systemd's RestrictNamespaces= forbids them.
static inline int rig_deny_sockets(void) {
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, RIG_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
        // x32 system calls have their own numbers, with this bit set: refused.
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
#endif
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
    };
    struct sock_fprog program = { .len = sizeof filter / sizeof filter[0], .filter = filter };
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program, 0, 0);
}

/// What a boxed converter gets: its command, its three standard descriptors, the landlock
/// ruleset from rig_landlock_ruleset (-1 for none) and its limits.
struct rig_box {
    const char *path;
    char *const *argv;
    char *const *envp;
    int stdin_fd, stdout_fd, stderr_fd;
    int ruleset_fd;
    unsigned long long cpu_seconds;
    unsigned long long address_space_bytes;
    unsigned long long file_size_bytes;
};

/// Which step of the child's set-up failed (rig_spawn_boxed's `failed_step`).
enum rig_box_step {
    RIG_BOX_FORK = 1, RIG_BOX_GROUP, RIG_BOX_DEATH_SIGNAL, RIG_BOX_DESCRIPTORS, RIG_BOX_LIMITS,
    RIG_BOX_NO_NEW_PRIVILEGES, RIG_BOX_LANDLOCK, RIG_BOX_SECCOMP, RIG_BOX_EXEC,
};

/// Starts the converter in its box and returns its pid (also its process group), or -1
/// with `*failed_step` and errno saying what failed. The child gets SIGKILL when the
/// *thread* that called this exits (PR_SET_PDEATHSIG follows the forking thread), so the
/// caller must be a thread that outlives the converter: the importer's own thread, which
/// waits for it. Between fork and execve the child makes only system calls; a failure
/// there reaches the parent through a close-on-exec pipe, which execve closes unwritten.
static inline pid_t rig_spawn_boxed(const struct rig_box *box, int *failed_step) {
    int report[2];
    *failed_step = RIG_BOX_FORK;
    if (syscall(__NR_pipe2, report, O_CLOEXEC) < 0) return -1;
    sigset_t none;
    sigemptyset(&none);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int saved = errno;
        close(report[0]);
        close(report[1]);
        errno = saved;
        return -1;
    }
    if (pid == 0) {
        int step = RIG_BOX_GROUP;
        if (setpgid(0, 0) < 0) goto fail;
        step = RIG_BOX_DEATH_SIGNAL;
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0) goto fail;
        // The parent may have died before the line above: then nobody would kill us.
        if (getppid() != parent) _exit(127);
        step = RIG_BOX_DESCRIPTORS;
        if (dup2(box->stdin_fd, 0) < 0 || dup2(box->stdout_fd, 1) < 0 || dup2(box->stderr_fd, 2) < 0) goto fail;
        // Whatever else the kiosk has open (devices, recordings, sockets) closes at execve.
        syscall(__NR_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC);
        // The kiosk blocks SIGTERM for its signalfd and ignores SIGPIPE; a converter
        // inherits both through execve unless they are undone here.
        sigprocmask(SIG_SETMASK, &none, NULL);
        for (int signal = 1; signal < 32; signal++) {
            if (signal != SIGKILL && signal != SIGSTOP) {
                struct sigaction action = { .sa_handler = SIG_DFL };
                sigaction(signal, &action, NULL);
            }
        }
        step = RIG_BOX_LIMITS;
        struct rlimit cpu = { box->cpu_seconds, box->cpu_seconds + 5 };
        struct rlimit memory = { box->address_space_bytes, box->address_space_bytes };
        struct rlimit size = { box->file_size_bytes, box->file_size_bytes };
        struct rlimit core = { 0, 0 };
        if (setrlimit(RLIMIT_CPU, &cpu) < 0 || setrlimit(RLIMIT_AS, &memory) < 0
            || setrlimit(RLIMIT_FSIZE, &size) < 0 || setrlimit(RLIMIT_CORE, &core) < 0) goto fail;
        // Behind the kiosk for the CPU: the show's frames come before an import. Best
        // effort (an older rig.service refuses setpriority).
        setpriority(PRIO_PROCESS, 0, 10);
        step = RIG_BOX_NO_NEW_PRIVILEGES;
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) goto fail;
        step = RIG_BOX_LANDLOCK;
        if (box->ruleset_fd >= 0 && syscall(__NR_landlock_restrict_self, box->ruleset_fd, 0) < 0) goto fail;
        step = RIG_BOX_SECCOMP;
        if (rig_deny_sockets() < 0) goto fail;
        step = RIG_BOX_EXEC;
        execve(box->path, box->argv, box->envp);
    fail:;
        int failure[2] = { step, errno };
        ssize_t written = write(report[1], failure, sizeof failure);
        (void)written;
        _exit(127);
    }
    close(report[1]);
    int failure[2] = { 0, 0 };
    ssize_t got;
    do { got = read(report[0], failure, sizeof failure); } while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got == (ssize_t)sizeof failure) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        *failed_step = failure[0];
        errno = failure[1];
        return -1;
    }
    *failed_step = 0;
    return pid;
}

/// 1 when the child has ended, without reaping it: its pid, and with it the process
/// group's id, stay taken until waitpid, so the group can still be killed safely.
static inline int rig_child_ended(pid_t pid) {
    siginfo_t info = { 0 };
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0) return errno == ECHILD ? 1 : 0;
    return info.si_pid == pid ? 1 : 0;
}
