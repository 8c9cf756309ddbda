# SPDX-License-Identifier: GPL-2.0
#
# ntprof: build the kernel module and the tool, run the checks and the lab.
# The kbuild part lives in Kbuild files; this is the wrapper around them.

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
NTPROF_VERSION ?= $(shell git describe --always --dirty 2>/dev/null || cat VERSION)
export NTPROF_VERSION

# The lab: KERNEL=6.1|6.12|debug|<release>, TOPOLOGY=two|one, HOST= and TARGET= scripts,
# SPDK=DIR (an SPDK build to put in the guests, Documentation/lab.rst).
KERNEL ?= 6.1
TOPOLOGY ?= two
export KERNEL TOPOLOGY SPDK

# Distro headers lack checkpatch.pl: fetch one from Debian's kernel sources.
CHECKPATCH ?= $(or $(wildcard $(KDIR)/scripts/checkpatch.pl),$(shell selftests/lab/fetch-checkpatch.sh))
KMOD_SOURCES := $(filter-out %.mod.c,$(wildcard kmod/*.c)) $(wildcard kmod/*.h)
KERNEL_SOURCES := $(KMOD_SOURCES) include/uapi/linux/ntprof.h \
	$(filter-out %.mod.c,$(wildcard tools/bench/emptyprobe/*.c))

.PHONY: all modules tools clean install modules_install tools_install \
	dkms-install deb style shellcheck check check-debug lab lab-run deps

all: modules tools

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) NTPROF_VERSION=$(NTPROF_VERSION) modules

tools:
	$(MAKE) -C tools/ntprof
	$(MAKE) -C tools/ntpgen
	$(MAKE) -C tools/agent

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || \
		rm -f kmod/*.o kmod/*.ko kmod/*.mod* kmod/.*.cmd
	$(MAKE) -C tools/ntprof clean
	$(MAKE) -C tools/ntpgen clean
	$(MAKE) -C tools/agent clean
	$(MAKE) -C selftests/unit clean

modules_install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a $(KVER)

tools_install: tools
	$(MAKE) -C tools/ntprof install

install: modules_install tools_install

# The Debian packages the checks and the lab need (as root: installs them).
deps:
	@selftests/lab/install-deps.sh

# Copy exactly the module's sources to /usr/src/ntprof-VERSION for DKMS.
DKMS_VERSION := $(shell cat VERSION)
DKMS_SRC ?= $(DESTDIR)/usr/src/ntprof-$(DKMS_VERSION)
dkms-install:
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)/kmod $(DKMS_SRC)/include/uapi/linux
	cp Kbuild Makefile VERSION $(DKMS_SRC)/
	cp kmod/Kbuild $(KMOD_SOURCES) $(DKMS_SRC)/kmod/
	cp include/uapi/linux/ntprof.h $(DKMS_SRC)/include/uapi/linux/
	sed 's/#MODULE_VERSION#/$(DKMS_VERSION)/' dkms.conf > $(DKMS_SRC)/dkms.conf

# The Debian packages ntprof-dkms and ntprof (Documentation/packages.rst),
# with debian/control's Build-Depends (apt-get build-dep installs those
# missing), built in a copy of the tree's files as git sees them
# (changes and new files included, ignored ones such as build products
# left out) under build/deb/, where the .deb files land, so that
# debian/rules' clean never touches this tree's own build.
DEB_DIR ?= build/deb
deb:
	@command -v dpkg-checkbuilddeps > /dev/null && dpkg-checkbuilddeps 2> /dev/null || \
	if [ "$$(id -u)" -ne 0 ]; then \
		echo "ntprof: make deb needs debian/control's Build-Depends: run it as root or install them" >&2; exit 1; \
	else \
		echo "ntprof: installing debian/control's Build-Depends" >&2; \
		export DEBIAN_FRONTEND=noninteractive && apt-get update -qq && \
		apt-get install -y -qq --no-install-recommends dpkg-dev > /dev/null && \
		apt-get build-dep -y -qq ./ > /dev/null; \
	fi
	@test "$$(dpkg-parsechangelog -S Version)" = "$(DKMS_VERSION)" || \
		{ echo "ntprof: debian/changelog's version is not VERSION's ($(DKMS_VERSION)): add an entry" >&2; exit 1; }
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_DIR)/src
	if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then \
		git ls-files -z --cached --others --exclude-standard | \
			tar --null -T - --ignore-failed-read -cf - | tar -C $(DEB_DIR)/src -xf -; \
	else \
		tar --exclude=./build -cf - . | tar -C $(DEB_DIR)/src -xf -; \
	fi
	cd $(DEB_DIR)/src && DEB_BUILD_OPTIONS="parallel=2 $$DEB_BUILD_OPTIONS" \
		dpkg-buildpackage -b -us -uc
	@ls $(DEB_DIR)/*.deb

# LINUX_VERSION_CODE: the rule is for code merged into one kernel; this
# module builds for many, with its version tests in kmod/compat.h.
style:
	@test -x "$(CHECKPATCH)" || { echo "checkpatch.pl not found: set CHECKPATCH="; exit 1; }
	$(CHECKPATCH) --no-tree --strict --quiet --show-types \
		--ignore LINUX_VERSION_CODE -f $(KERNEL_SOURCES)

# ShellCheck over every shell script git tracks, by name (*.sh) or by its
# sh or bash shebang, with .shellcheckrc's policy. make check runs it too,
# as the unit test selftests/unit/test_shellcheck.sh.
shellcheck:
	@selftests/shellcheck.sh

# The README's test command: unit tests, module builds, lab integration tests.
# Strict: deps installed every tool the tests use, so a test that skips for
# a missing one fails: a lab test itself fails (Documentation/lab.rst), and
# run_tests.sh counts any other such skip as a failure (CHECK_STRICT).
check: deps
	CHECK_STRICT=1 selftests/run_tests.sh

# The fault tests again on the lab's debug kernel (KASAN, KFENCE, lockdep,
# kmemleak, UBSAN), apart from check for its time: a first run builds the
# kernel (Documentation/lab.rst, "The debug kernel").
check-debug: deps
	CHECK_STRICT=1 CHECK_ONLY=debug selftests/run_tests.sh

lab: deps
	selftests/lab/demo.sh

lab-run: deps
	selftests/lab/lab-run.sh $(if $(HOST),--host $(HOST)) $(if $(TARGET),--target $(TARGET))
