#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The package test's guest: what the lab's /init does, run by the
# service lab-pkg-boot.service (pkg-image.sh) of the Debian system the
# guest booted (pkgroot.sh), then a clean power-off through systemd.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:/lab/bin
export HOME=/root
mkdir -p /root
# The console, as the lab's /init writes: lines as they are, which
# journald's forwarding would prefix with a time and a process.
exec > /dev/console 2>&1

# shellcheck source=guest.sh # /lab in the guest is this folder.
. /lab/guest.sh
lab_boot
systemctl poweroff --no-block
