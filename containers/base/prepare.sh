#!/bin/sh
# Runs inside `docker build` of containers/base/Dockerfile.
set -eu
# The debootstrap rootfs already has git and pytest (and the build has no network);
# python:3.11-slim lacks them and fetches them here.
if ! command -v git >/dev/null 2>&1; then
    apt-get update
    apt-get install -y --no-install-recommends git
    rm -rf /var/lib/apt/lists/*
fi
if ! python3 -c 'import pytest' >/dev/null 2>&1; then
    python3 -m pip install --no-cache-dir pytest
fi
python3 -c 'import venv, ensurepip'

# The unprivileged user every sandbox command runs as.
if ! grep -q '^agent:' /etc/passwd; then
    echo 'agent:x:1000:1000:envsuite agent:/tmp:/bin/bash' >> /etc/passwd
    echo 'agent:x:1000:' >> /etc/group
fi
# The root-owned inbox files are staged in (readable, not writable, by the agent).
mkdir -p /var/envsuite/inbox /opt/envsuite
chmod 0755 /var/envsuite /var/envsuite/inbox /opt/envsuite
# The agent writes only to its tmpfs mounts (/repo, /tmp), never to the image's disk.
# (A tmpfs mount takes the mode of the folder it covers, so /tmp stays 1777.)
find / -xdev -type d -perm -0002 ! -path /tmp -exec chmod o-w {} +
chmod 1777 /tmp
