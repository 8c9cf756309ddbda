# SPDX-License-Identifier: GPL-2.0
# The demo, target side: load ntprof beside nvmet and show what it sees.
set -e
modprobe ntprof
echo "== target: ntprof status"
ntprof status
lab-ready
lab-wait-host
