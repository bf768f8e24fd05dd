#!/bin/sh
# Make a minimal Debian rootfs for envsuite's SWE sandboxes with debootstrap.
#   build-rootfs.sh TARGET ARCHIVE_URI SUITE PACKAGES
# ARCHIVE_URI and SUITE come from the machine's apt configuration (envsuite reads them);
# PACKAGES is a comma-separated list for debootstrap --include. Needs root.
set -eu
target=$1
archive=$2
suite=$3
packages=$4

debootstrap --variant=minbase --include="$packages" "$suite" "$target" "$archive"

# Trim what a sandbox never needs: downloaded packages, package lists, docs, translations.
rm -rf "$target"/var/cache/apt/archives/*.deb "$target"/var/lib/apt/lists/* \
       "$target"/usr/share/doc/* "$target"/usr/share/man/* "$target"/usr/share/info/* \
       "$target"/usr/share/locale/* "$target"/var/log/*.log "$target"/var/cache/debconf/*-old
find "$target"/usr/lib/python3* -name __pycache__ -type d -prune -exec rm -rf {} +
