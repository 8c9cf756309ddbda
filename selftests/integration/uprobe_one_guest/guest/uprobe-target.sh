# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The uprobe tests on one guest: the host's script drives everything.
lab-ready
lab-wait-host
