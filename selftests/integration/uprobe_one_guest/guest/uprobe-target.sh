# SPDX-License-Identifier: GPL-2.0
# The uprobe tests on one guest: the host's script drives everything.
lab-ready
lab-wait-host
