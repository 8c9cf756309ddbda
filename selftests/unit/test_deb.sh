#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages as 'make deb' builds them (Documentation/packages.rst):
# ntprof-dkms and ntprof are built from the tree (about a minute and a
# half on two cores; NTPROF_DEB_DIR=DIR takes the .debs already in DIR
# instead), their files are those Documentation/packages.rst lists, the
# module's sources those of kmod/, their control fields what the page
# says (dkms for ntprof-dkms only, the conffile, the version VERSION's),
# the packaged tool takes the agent from /usr/lib/ntprof, lintian finds
# no error and no warning, and systemd-analyze verify passes the unit's
# two instances, in a root made of the package and this machine's units.
# Prints TAP; exits 1 if a check failed.
set -u
cd "$(dirname "$0")" || exit 1
. ../ktap.sh

TOP=$(cd ../.. && pwd)
DOC=$TOP/Documentation/packages.rst
VERSION=$(cat "$TOP/VERSION")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ktap_header
if ! ktap_need "the Debian packages" dpkg-buildpackage dh dh_dkms lintian \
		systemd-analyze; then
	ktap_finished
	exit
fi

if [ -n "${NTPROF_DEB_DIR:-}" ]; then
	DEBS=$NTPROF_DEB_DIR
	ktap_diag "the packages of $DEBS, not built here"
else
	DEBS=$TMP/deb
	if ! nice -n 10 make -s -C "$TOP" deb DEB_DIR="$DEBS" > "$TMP/build.log" 2>&1; then
		echo "Bail out! make deb failed"
		tail -n 20 "$TMP/build.log" | sed 's/^/# /'
		exit 1
	fi
fi
DKMS_DEB=$DEBS/ntprof-dkms_${VERSION}_all.deb
TOOL_DEB=$DEBS/ntprof_${VERSION}_amd64.deb
if [ -f "$DKMS_DEB" ] && [ -f "$TOOL_DEB" ]; then
	ktap_pass "make deb: ntprof-dkms_${VERSION}_all.deb and ntprof_${VERSION}_amd64.deb"
else
	ktap_fail "make deb: ntprof-dkms_${VERSION}_all.deb and ntprof_${VERSION}_amd64.deb"
	ls "$DEBS" | sed 's/^/# /'
	echo "Bail out! no packages to check"
	exit 1
fi

# doc_files N: the file list of the page's Nth "code-block:: text", the
# page's ntprof-VERSION given the version.
doc_files() {
	awk -v want="$1" '
		/^    \.\. code-block:: text$/ { n++; inblock = 1; next }
		inblock && /^        \// { if (n == want) print $1; next }
		inblock && /^    [^ ]/ { inblock = 0 }' "$DOC" |
		sed "s/ntprof-VERSION/ntprof-$VERSION/g"
}

# files_match DEB N: every file (not directory) of DEB matches one line
# (a glob) of the page's list N, and every line matches a file.
files_match() {
	local deb=$1 pats f p hit bad=

	mapfile -t pats < <(doc_files "$2")
	[ ${#pats[@]} -gt 0 ] || { echo "no list $2 in $DOC"; return 1; }
	dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }' \
		> "$TMP/files"
	while read -r f; do
		hit=
		for p in "${pats[@]}"; do
			# shellcheck disable=SC2053 # the page's lines are globs
			[[ $f == $p ]] && hit=1 && break
		done
		[ -n "$hit" ] || bad="$bad $f(not in the page)"
	done < "$TMP/files"
	for p in "${pats[@]}"; do
		hit=
		while read -r f; do
			# shellcheck disable=SC2053
			[[ $f == $p ]] && hit=1 && break
		done < "$TMP/files"
		[ -n "$hit" ] || bad="$bad $p(not in the package)"
	done
	[ -z "$bad" ] && return 0
	echo "$bad"
	return 1
}
ktap_check "ntprof-dkms's files are the ones Documentation/packages.rst lists" \
	files_match "$DKMS_DEB" 1
ktap_check "ntprof's files are the ones Documentation/packages.rst lists" \
	files_match "$TOOL_DEB" 2

# The module's sources: exactly kmod/'s, as the Makefile's dkms-install
# copies them.
sources_match() {
	local want got

	want=$(cd "$TOP" && git ls-files kmod include/uapi/linux/ntprof.h |
		grep -v '\.mod\.c$' | sort)
	got=$(dpkg-deb -c "$DKMS_DEB" |
		awk '$1 !~ /^d/ { print $6 }' |
		sed -n "s|^\./usr/src/ntprof-$VERSION/||p" |
		grep -E '^(kmod|include)/' | sort)
	[ "$want" = "$got" ] && return 0
	diff <(echo "$want") <(echo "$got")
	return 1
}
ktap_check "ntprof-dkms holds the tree's kmod/ and UAPI header, no more" sources_match

mkdir -p "$TMP/dkms" "$TMP/root"
dpkg-deb -R "$DKMS_DEB" "$TMP/dkms"
dpkg-deb -R "$TOOL_DEB" "$TMP/root"
# field DIR NAME: a control field.
field() { sed -n "s/^$2: //p" "$1/DEBIAN/control"; }
controls_ok() {
	local bad=

	[ "$(field "$TMP/dkms" Architecture)" = all ] || bad="$bad dkms-arch"
	[[ $(field "$TMP/dkms" Depends) == *"dkms ("* ]] || bad="$bad dkms-depends"
	[ "$(field "$TMP/root" Architecture)" = amd64 ] || bad="$bad tool-arch"
	[[ $(field "$TMP/root" Depends) != *dkms* ]] || bad="$bad tool-depends-dkms"
	[[ $(field "$TMP/root" Recommends) == *ntprof-dkms* ]] || bad="$bad tool-recommends"
	[ "$(field "$TMP/dkms" Version)" = "$VERSION" ] || bad="$bad dkms-version"
	[ "$(field "$TMP/root" Version)" = "$VERSION" ] || bad="$bad tool-version"
	[ "$(cat "$TMP/root/DEBIAN/conffiles")" = /etc/default/ntprof ] ||
		bad="$bad conffiles"
	grep -q "^PACKAGE_VERSION=\"$VERSION\"$" \
		"$TMP/dkms/usr/src/ntprof-$VERSION/dkms.conf" || bad="$bad dkms.conf"
	grep -q "^DKMS_VERSION=$VERSION$" "$TMP/dkms/DEBIAN/postinst" ||
		bad="$bad postinst"
	grep -q "dkms remove -m \$DKMS_NAME -v \$DKMS_VERSION --all" \
		"$TMP/dkms/DEBIAN/prerm" || bad="$bad prerm"
	[ -z "$bad" ] && return 0
	echo "wrong:$bad"
	return 1
}
ktap_check "control: ntprof-dkms all, depends on dkms, its postinst and prerm run DKMS for $VERSION; ntprof amd64, no dkms, /etc/default/ntprof a conffile" \
	controls_ok

# The packaged tool is not in a build tree: the agent it names is the
# installed one.
tool_ok() {
	local out

	out=$("$TMP/root/usr/sbin/ntprof" --version) || return 1
	[[ $out == "ntprof $VERSION "* ]] || { echo "$out"; return 1; }
	out=$("$TMP/root/usr/sbin/ntprof" run --help) || return 1
	grep -q "or /usr/lib/ntprof/libntprof-agent.so)" <<< "$out" ||
		{ echo "$out"; return 1; }
}
ktap_check "the packaged ntprof is $VERSION and takes the agent from /usr/lib/ntprof/libntprof-agent.so" \
	tool_ok

# lintian on the .changes (both packages); every tag but the
# informational ones fails.
lintian_ok() {
	local out

	out=$(lintian --pedantic -I "$DEBS"/ntprof_"${VERSION}"_amd64.changes 2>&1 |
		grep -v "running with root privileges")
	ktap_diag "lintian: $(grep -c '^E:' <<< "$out") errors, $(grep -c '^W:' <<< "$out") warnings, $(grep -c '^[IP]:' <<< "$out") notes"
	! grep -q '^[EW]:' <<< "$out" && return 0
	echo "$out"
	return 1
}
ktap_check "lintian --pedantic: no error, no warning" lintian_ok

# systemd-analyze verify reads the units, with what they refer to, under
# --root: the package, this machine's units and its modprobe.
mkdir -p "$TMP/root/usr/lib/systemd/system"
cp -a /lib/systemd/system/. "$TMP/root/usr/lib/systemd/system/"
cp /usr/sbin/modprobe "$TMP/root/usr/sbin/"
ln -s usr/sbin "$TMP/root/sbin"
for role in host target; do
	unit=ntprof-record@$role.service
	if out=$(systemd-analyze verify --man=no --root="$TMP/root" "$unit" 2>&1) &&
	   [ -z "$out" ]; then
		ktap_pass "systemd-analyze verify $unit: nothing to say"
	else
		ktap_fail "systemd-analyze verify $unit: nothing to say"
		sed 's/^/# /' <<< "$out"
	fi
done
ktap_finished
