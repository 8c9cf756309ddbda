# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A target that does nothing of its own: the host's script drives everything.
lab-ready
lab-wait-host
