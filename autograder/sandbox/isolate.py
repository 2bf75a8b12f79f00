"""Linux isolation for one submission: namespaces, a read-only file system view, limits, no privileges.

Used by :mod:`autograder.sandbox.zygote` in the process that runs a submission, after it was forked
from the warm zygote. Only what Linux provides (``unshare``, ``mount``, ``setrlimit``, cgroup v1,
``prctl``/``capset``), through ``ctypes``: no binary of our own, nothing to install.

- ``unshare``: a new network namespace (only a loopback that is down: no network), mount, PID, IPC
  and UTS namespaces; without root, first a user namespace.
- mounts: everything read-only; the course repository, the grading directory, the submissions and
  home directories hidden under empty file systems, except the Python installation and the course
  package; a fresh ``/tmp`` (size-limited, gone with the process), a fresh ``/proc`` showing only
  the submission's processes, a ``/dev`` with only null, zero, random and urandom.
- limits: address space for data (``RLIMIT_DATA``) and, as root, a cgroup memory cap; a cap on
  processes and threads (cgroup ``pids`` as root, else ``RLIMIT_NPROC``); file size; no core dumps.
- privileges: every capability dropped, ``no_new_privs`` set; the environment scrubbed.

:func:`available` says whether this machine allows it; the grader warns loudly when it does not.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import resource
import sys
from pathlib import Path

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_BIND = 4096
MS_REC = 16384
MS_PRIVATE = 1 << 18
MNT_DETACH = 2

PR_SET_PDEATHSIG = 1
PR_CAPBSET_DROP = 24
PR_SET_NO_NEW_PRIVS = 38
PR_SET_CHILD_SUBREAPER = 36

CGROUP = Path("/sys/fs/cgroup")
WRITABLE = ("/tmp", "/var/tmp")
DEVICES = ("/dev/null", "/dev/zero", "/dev/random", "/dev/urandom")
STAGING = "/mnt"

_libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)


class IsolationError(OSError):
    pass


def _check(result: int, what: str) -> None:
    if result != 0:
        code = ctypes.get_errno()
        raise IsolationError(code, f"{what}: {os.strerror(code)}")


def unshare(flags: int) -> None:
    _check(_libc.unshare(ctypes.c_int(flags)), "unshare")


def mount(source: str | None, target: str, fstype: str | None, flags: int = 0, data: str | None = None) -> None:
    def encode(text):
        return text.encode() if text is not None else None

    _check(_libc.mount(encode(source), encode(target), encode(fstype), ctypes.c_ulong(flags), encode(data)),
           f"mount {target}")


def umount(target: str) -> None:
    _check(_libc.umount2(target.encode(), MNT_DETACH), f"umount {target}")


def prctl(option: int, value: int) -> int:
    return _libc.prctl(ctypes.c_int(option), ctypes.c_ulong(value), ctypes.c_ulong(0), ctypes.c_ulong(0),
                       ctypes.c_ulong(0))


def set_subreaper() -> None:
    """Orphans of the processes this one starts become its children, so it can reap them."""
    prctl(PR_SET_CHILD_SUBREAPER, 1)


def die_with_parent() -> None:
    import signal

    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def is_root() -> bool:
    return os.geteuid() == 0


def enter_namespaces() -> int:
    """In the supervisor: new namespaces for the next child (the child becomes PID 1). Returns flags."""
    flags = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS
    if is_root():
        unshare(flags)
        return flags
    uid, gid = os.getuid(), os.getgid()
    unshare(flags | CLONE_NEWUSER)
    Path("/proc/self/setgroups").write_text("deny")
    Path("/proc/self/uid_map").write_text(f"0 {uid} 1")
    Path("/proc/self/gid_map").write_text(f"0 {gid} 1")
    return flags | CLONE_NEWUSER


def _mountpoints() -> list[str]:
    points = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        point = line.split()[4].replace("\\040", " ")
        points.append(point)
    return points


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def restrict_filesystem(hide: list[str], keep: list[str], tmp_size: str = "512m") -> None:
    """In the child, PID 1 of its namespaces: the read-only view described in the module doc."""
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    keep = sorted({os.path.realpath(p) for p in keep if os.path.exists(p)} | set(DEVICES))
    roots = sorted({os.path.realpath(p) for p in [*hide, *WRITABLE, "/dev"] if os.path.isdir(p)})
    roots = [r for r in roots if not any(r != o and _inside(r, o) for o in roots)]  # outermost only
    # 1. a staging area holding what must stay visible inside hidden folders
    mount("tmpfs", STAGING, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0700")
    staged: list[tuple[str, str]] = []
    for index, path in enumerate(keep):
        if not any(_inside(path, root) for root in roots):
            continue
        stage = f"{STAGING}/{index}"
        if os.path.isdir(path):
            os.mkdir(stage)
        else:
            Path(stage).touch()
        mount(path, stage, None, MS_BIND | MS_REC)
        staged.append((path, stage))
    # 2. every hidden folder becomes an empty file system; what is kept comes back, read-only
    for root in roots:
        writable = root in WRITABLE
        options = f"size={tmp_size},mode=1777" if writable else "size=1m,mode=0755"
        mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, options)
        for path, stage in staged:
            if _inside(path, root):
                if os.path.isdir(stage):
                    os.makedirs(path, exist_ok=True)
                else:
                    os.makedirs(os.path.dirname(path), exist_ok=True)
                    Path(path).touch()
                mount(stage, path, None, MS_BIND | MS_REC)
    os.makedirs("/dev/shm", exist_ok=True)
    umount(STAGING)
    # 3. everything read-only but the writable folders
    for point in reversed(_mountpoints()):
        if point in WRITABLE or point.startswith("/proc") or any(point == p for p in DEVICES):
            continue
        try:
            mount(None, point, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
        except IsolationError:
            try:  # some file systems want their own flags kept; read-only is what matters
                mount(None, point, None, MS_BIND | MS_REMOUNT | MS_RDONLY)
            except IsolationError:
                pass
    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=64m,mode=1777")
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)


def join_cgroups(name: str, memory_bytes: int | None, max_pids: int) -> dict[str, Path]:
    """As root: cgroup v1 memory and pids groups for this process (and all it starts)."""
    groups = {}
    if not is_root():
        return groups
    for controller, settings in (("memory", {"memory.limit_in_bytes": memory_bytes,
                                              "memory.memsw.limit_in_bytes": None}),
                                 ("pids", {"pids.max": max_pids})):
        base = CGROUP / controller
        if not (base / "cgroup.procs").exists():
            continue
        group = base / "attention-grade" / name
        try:
            group.mkdir(parents=True, exist_ok=True)
            for setting, value in settings.items():
                if value is not None and (group / setting).exists():
                    (group / setting).write_text(str(value))
            (group / "cgroup.procs").write_text("0")
            groups[controller] = group
        except OSError:
            continue
    return groups


def cgroup_oom(group: Path | None) -> bool:
    """True when the memory cgroup hit its limit (the kernel's OOM killer ran or an allocation failed)."""
    if group is None:
        return False
    try:
        control = (group / "memory.oom_control").read_text()
        killed = any(line.startswith("oom_kill ") and int(line.split()[1]) > 0 for line in control.splitlines())
        return killed or int((group / "memory.failcnt").read_text()) > 0
    except (OSError, ValueError):
        return False


def remove_cgroup(group: Path) -> None:
    """Kill whatever is left in the group, then remove it."""
    import signal
    import time

    for _ in range(50):
        try:
            pids = [int(p) for p in (group / "cgroup.procs").read_text().split()]
        except OSError:
            return
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.02)
    try:
        group.rmdir()
    except OSError:
        pass


def set_limits(memory_bytes: int, max_processes: int, file_bytes: int = 256 << 20) -> None:
    """rlimits: data memory, file size, no core dumps, and (not root) the number of processes."""
    resource.setrlimit(resource.RLIMIT_DATA, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_bytes, file_bytes))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
    if not is_root():
        running = len([p for p in os.listdir("/proc") if p.isdigit()])
        resource.setrlimit(resource.RLIMIT_NPROC, (running + max_processes, running + max_processes))


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def drop_privileges() -> None:
    """No capability left, none to regain (no_new_privs): no mount, no raw device, no ptrace."""
    for cap in range(64):
        if prctl(PR_CAPBSET_DROP, cap) != 0 and ctypes.get_errno() == errno.EINVAL:
            break
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    _check(_libc.capset(ctypes.byref(header), data), "capset")
    _check(prctl(PR_SET_NO_NEW_PRIVS, 1), "no_new_privs")


def clean_environment(home: str) -> dict[str, str]:
    """What a submission sees of the environment: nothing that says it is being graded."""
    keep = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": os.environ.get("LANG", "C.UTF-8")}
    return {**keep, "HOME": home, "TMPDIR": "/tmp", "MPLBACKEND": "Agg", "MPLCONFIGDIR": f"{home}/.matplotlib",
            "TF_CPP_MIN_LOG_LEVEL": "3", "PYTHONDONTWRITEBYTECODE": "1"}


def available() -> str | None:
    """None when a child can be isolated here, else why not (tried in a throw-away child)."""
    pid = os.fork()
    if pid == 0:
        try:
            enter_namespaces()
            os._exit(0)
        except Exception:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) == 0:
        return None
    return ("Linux namespaces are not available to this user (unshare failed); enable user namespaces "
            "(sysctl kernel.unprivileged_userns_clone=1) or grade as root")


if __name__ == "__main__":
    print(available() or "isolation available", file=sys.stdout)
