"""What the package tests share: a scratch root to install packages into with dpkg, and the
private mount namespace it lives in.

The scratch root is this machine's root seen through overlays (usr, etc and var: the host's files
below, a tmpfs above), so dpkg checks the packages' dependencies against the packages really
installed here and runs their maintainer scripts (chrooted into the scratch root by
dpkg --root), while nothing reaches the host: the mounts are made in a private mount namespace,
and go with it when the test ends. Its /dev holds device nodes of its own, /run and /tmp are
empty tmpfs (so maintainer scripts see no running systemd)."""

import os
import stat
import subprocess
import sys

import rdmadiag_bed as bed

IN_NAMESPACE = "RDMADIAG_PACKAGE_TEST_NAMESPACE"


def in_namespace():
    return os.environ.get(IN_NAMESPACE) == "1"


def run(cmd, check=True, **kw):
    print("+", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if check and p.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p


def enter_namespace(script):
    """Runs `script` again in a private mount namespace; returns its exit code."""
    if os.geteuid() != 0:
        bed.skip("installing packages into a scratch root needs root (mount namespace, dpkg)")
    bed.require_program("unshare", "util-linux")
    probe = subprocess.run(["unshare", "--mount", "--propagation", "private", "true"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        bed.skip(f"cannot make a mount namespace here: {probe.stderr.strip()}")
    with open("/proc/filesystems") as f:
        if "overlay" not in f.read():
            subprocess.run(["modprobe", "overlay"], capture_output=True)
    env = dict(os.environ, **{IN_NAMESPACE: "1"})
    return subprocess.call(["unshare", "--mount", "--propagation", "private", "--",
                            sys.executable, os.path.abspath(script)] + sys.argv[1:], env=env)


def mount(*args):
    run(["mount"] + list(args))


def make_root(base):
    """The host's root through overlays under base/root; returns its path."""
    root = os.path.join(base, "root")
    os.makedirs(base)
    mount("-t", "tmpfs", "-o", "mode=0755", "scratch", base)
    os.makedirs(root)
    for top in sorted(os.listdir("/")):
        host = os.path.join("/", top)
        if os.path.islink(host):
            os.symlink(os.readlink(host), os.path.join(root, top))
    for top in ("usr", "etc", "var"):
        upper, work = os.path.join(base, "upper", top), os.path.join(base, "work", top)
        os.makedirs(upper)
        os.makedirs(work)
        os.makedirs(os.path.join(root, top))
        p = run(["mount", "-t", "overlay", "-o",
                 f"lowerdir=/{top},upperdir={upper},workdir={work}", f"scratch-{top}",
                 os.path.join(root, top)], check=False)
        if p.returncode != 0:
            bed.skip(f"cannot mount an overlay of /{top} here: {p.stderr.strip()}")
    # Device nodes of its own rather than the host's /dev bound in: nothing done to the scratch
    # root can reach the host's.
    dev = os.path.join(root, "dev")
    os.makedirs(dev)
    for name, minor in (("null", 3), ("zero", 5), ("random", 8), ("urandom", 9)):
        os.mknod(os.path.join(dev, name), 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    os.makedirs(os.path.join(root, "proc"))
    mount("-t", "proc", "proc", os.path.join(root, "proc"))
    for top in ("run", "tmp"):
        os.makedirs(os.path.join(root, top))
        mount("-t", "tmpfs", "-o", "mode=1777" if top == "tmp" else "mode=0755", top,
              os.path.join(root, top))
    return root


def drop_group(root, name):
    """Removes a group from the scratch root, so that the postinst has to create it."""
    for path in ("etc/group", "etc/gshadow"):
        full = os.path.join(root, path)
        if not os.path.exists(full):
            continue
        with open(full) as f:
            lines = [line for line in f if not line.startswith(name + ":")]
        with open(full, "w") as f:
            f.writelines(lines)


def has_group(root, name):
    with open(os.path.join(root, "etc/group")) as f:
        return any(line.startswith(name + ":") for line in f)


def query(root, package, field):
    p = run(["dpkg-query", f"--admindir={root}/var/lib/dpkg", "-W", f"-f=${{{field}}}",
             package], check=False)
    return p.stdout if p.returncode == 0 else ""


def packages(debs, names):
    """{name: path} of the .deb of each package in the folder debs; a missing one ends the test."""
    found = {}
    for name in names:
        files = [os.path.join(debs, f) for f in sorted(os.listdir(debs))
                 if f.startswith(name + "_") and f.endswith(".deb")]
        if len(files) != 1:
            bed.finish([f"expected one {name} package in {debs}, found {files}"])
        found[name] = files[0]
    return found


def unmount(base):
    """Takes the scratch root down (lazily: a process still inside does not hold it up)."""
    run(["umount", "--recursive", "--lazy", base], check=False)
