# SPDX-License-Identifier: GPL-2.0
# bash completion for ntprof(8): its commands, and each command's options
# and their values.

_ntprof()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]}
	local commands="status probe record report compare run version help"
	local words

	if ((COMP_CWORD == 1)); then
		words="$commands"
		[[ $cur == -* ]] && words="-h --help --version"
	else
		case ${COMP_WORDS[1]} in
		status|version)
			words="-h --help"
			;;
		probe|record)
			# "--chain=m": bash splits at '=', as for report's below.
			if [[ ${COMP_WORDS[1]} == record ]] &&
			   { [[ $cur == = && $prev == --chain ]] ||
			     { [[ $prev == = ]] && ((COMP_CWORD > 2)) &&
			       [[ ${COMP_WORDS[COMP_CWORD - 2]} == --chain ]]; }; }; then
				[[ $cur == = ]] && cur=
				mapfile -t COMPREPLY < <(compgen -W "md" -- "$cur")
				return
			fi
			case $prev in
			-r|--role)
				words="host target"; [[ ${COMP_WORDS[1]} == record ]] && words="$words host,target"
				;;
			-t|--transport)
				words="tcp rdma tcp,rdma"
				;;
			--op)
				words="read write other"
				;;
			--dev)
				words=$(cd /sys/block 2>/dev/null && echo *)
				;;
			-o|--output|--spdk-target|--spdk-host|--prom)
				compopt -o filenames 2>/dev/null
				mapfile -t COMPREPLY < <(compgen -f -- "$cur")
				return
				;;
			-s|--sample|-i|--interval|-d|--duration|--min-size|--max-size|--rotate|--keep)
				# A number: nothing to offer.
				return
				;;
			*)
				words="-r -t -h --role --transport --spdk-target --spdk-host --help"
				[[ ${COMP_WORDS[1]} == record ]] &&
					words="-r -t -o -s -i -d -h --role --transport --output --sample --interval --duration --dev --op --min-size --max-size --spdk-target --spdk-host --prom --rotate --keep --stages-only --chain --help"
				;;
			esac
			;;
		report|compare)
			# "--hist=st": bash splits at '=', so prev is "=" (or
			# cur is, right after it) and the option is before it.
			local opt=$prev
			if [[ $cur == = ]]; then
				cur=
				opt=$prev=
			elif [[ $prev == = ]] && ((COMP_CWORD > 2)); then
				opt=${COMP_WORDS[COMP_CWORD - 2]}=
			fi
			case $opt in
			--html|--html=|--csv|--csv=)
				# An output: never offer a recording to write over.
				compopt -o filenames 2>/dev/null
				mapfile -t COMPREPLY < <(compgen -f -X '*.ntp' -- "$cur")
				return
				;;
			--by|--by=)
				# A list: complete its last part.
				local pre=
				[[ $cur == *,* ]] && pre=${cur%,*},
				mapfile -t COMPREPLY < <(compgen -P "$pre" \
					-W "op size dev queue cpu ccpu pid path host leg" -- "${cur##*,}")
				return
				;;
			--timeline|--timeline=|--tail=)
				# A number: nothing to offer.
				return
				;;
			--legs|--legs=)
				# Two leg labels of report's legs table: nothing to offer.
				return
				;;
			--hist=)
				mapfile -t COMPREPLY < <(compgen -W "end_to_end host_block_layer host_driver network network_and_target target_driver storage host_block_layer_submission host_driver_submission network_wire data_transfer_at_target target_driver_submission network_host_data_transfer storage_target_block_layer storage_drive target_driver_completion network_host_receive_path host_driver_completion handoff_to_nvme_complete_rq host_block_layer_completion" -- "$cur")
				return
				;;
			esac
			if [[ $cur == -* ]]; then
				words="-D -j -h --detail --json --html --match --legs --help"
				[[ ${COMP_WORDS[1]} == report ]] &&
					words="-D -j -h --detail --json --csv --html --hist --tail --by --timeline --stream --load --help"
			else
				compopt -o filenames 2>/dev/null
				mapfile -t COMPREPLY < <(compgen -f -X '!*.ntp' -- "$cur"; compgen -d -- "$cur")
				return
			fi
			;;
		run)
			case $prev in
			-r|--role)
				words="host target"
				;;
			-t|--transport)
				words="tcp rdma"
				;;
			--agent|--print-env)
				compopt -o filenames 2>/dev/null
				mapfile -t COMPREPLY < <(compgen -f -- "$cur")
				return
				;;
			*)
				words="-r -t -h --role --transport --agent --print-env --help"
				;;
			esac
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
