#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The package test's guest: what the lab's /init does, run by the
# service lab-pkg-boot.service (pkg-image.sh) of the Debian system the
# guest booted (pkgroot.sh), then a clean power-off through systemd.
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:/lab/bin
export HOME=/root
mkdir -p /root

. /lab/guest.sh
lab_boot
systemctl poweroff --no-block
