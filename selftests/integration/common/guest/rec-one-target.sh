# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Recorder on one guest, target side: the host's script drives both roles
# in the one kernel; this side only lets it start.
lab-ready
lab-wait-host
