# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The parts of a step's name, KIND-TRANSPORT-sN, as the configs and the
# faults scenarios name their steps (configs-lib.sh, faults-lib.sh):
# step_kind STEP is the configuration or the fault, step_transport STEP
# the transport, step_sample STEP the sampling rate. Sourced in the
# guests from /lab/tests and, by the checks, from this folder.

step_kind() {
	echo "${1%%-*}"
}

step_transport() {
	local r=${1#*-}

	echo "${r%-s*}"
}

step_sample() {
	echo "${1##*-s}"
}
