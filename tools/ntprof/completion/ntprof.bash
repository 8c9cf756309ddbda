# SPDX-License-Identifier: GPL-2.0
# bash completion for ntprof(8): its commands, and each command's options.

_ntprof()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	local commands="status version help"
	local words

	if ((COMP_CWORD == 1)); then
		words="$commands"
		[[ $cur == -* ]] && words="-h --help --version"
	else
		case ${COMP_WORDS[1]} in
		status|version)
			words="-h --help"
			;;
		help)
			((COMP_CWORD == 2)) || return
			words="$commands"
			[[ $cur == -* ]] && words="-h --help"
			;;
		*)
			return
			;;
		esac
	fi
	mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
}

complete -F _ntprof ntprof
