# SPDX-License-Identifier: GPL-2.0-only
# Checks a `reclaim-replay compare -o` document against schema version 1
# (man/reclaim-replay-json.5).  Prints the list of violations; [] is valid.
def isint: type == "number" and . == floor and . >= 0;
def req(path; test; what): if (path | test) then empty else what end;
def target: (type == "object")
  and (.cgroup | type == "string" or type == "null")
  and (.cgroup_id | isint) and (.priority | isint) and .priority <= 12
  and (.lru | IN("inactive_anon","active_anon","inactive_file","active_file","unevictable"))
  and (.nr_pages | isint);
def result: type == "object" and ((if .call_arrays_cut then 4096 else .calls end) as $calls
  | (.nr_scanned | isint) and (.nr_reclaimed | isint) and (.calls | isint)
  and (.nr_scanned_anon | isint) and (.nr_scanned_file | isint)
  and (.nr_reclaimed_anon | isint) and (.nr_reclaimed_file | isint)
  and (.shrink_lruvec_calls | isint) and (.batches | isint)
  and (.lowest_priority | isint) and .lowest_priority <= 12 and (.retries | isint)
  and (.outcome | IN("met","short","eagain"))
  and (.call_arrays_cut | type == "boolean") and (.call_arrays_cut == (.calls > 4096))
  and (.call_requests_pages | type == "array" and length == $calls and all(.[]; isint))
  and (.call_nr_to_reclaim_pages | type == "array" and length == $calls and all(.[]; isint and . >= 32))
  and (.call_reclaimed_pages | type == "array" and length == $calls and all(.[]; isint))
  and (.scan_targets | type == "array" and all(.[]; target)));
. as $d
| [ req(.schema_version; . == 1; "schema_version"),
    req(.tool; type == "object" and .name == "reclaim-replay" and (.version | type == "string"); "tool"),
    req(.input; type == "object" and (.file | type == "string") and (.kernel_release | type == "string")
        and (.page_size_bytes | isint) and (.stats.events | isint) and (.assumptions | type == "array"); "input"),
    req(.policies; type == "array" and length >= 1 and all(.[]; (.name | type == "string")
        and (.scan_fract_target_from | type == "string") and (.proactive_chunk_from | type == "string")); "policies"),
    req(.baseline; . == $d.policies[0].name; "baseline"),
    req(.episodes; type == "array"; "episodes"),
    ( .episodes[] | . as $e
      | req(.; (.id | isint) and (.kind | IN("memcg","softlimit","proactive","direct","kswapd","node")) and (.pid | isint)
            and (.start_ns | isint) and (.duration_ns | isint) and (.nr_to_reclaim | isint)
            and (.online_state_uncertain | type == "boolean")
            and (.cgroup | type == "string" or type == "null")
            and (if $d.input.scenario then .recorded == null
                 else (.recorded | type == "object" and (.nr_reclaimed | isint) and (.nr_scanned | isint)
                       and (.scan_targets | type == "array" and all(.[]; target))) end); "episode \($e.id)"),
        (if .results == null then req(.skip_reason; type == "string"; "episode \($e.id) skip_reason")
         else req(.results; (keys | sort) == ($d.policies | map(.name) | sort)
                  and all(.[]; result); "episode \($e.id) results"),
              req(.differs_from_baseline; type == "array"; "episode \($e.id) differs_from_baseline")
         end) ),
    req(.fidelity; if $d.input.scenario then . == null else
        (type == "object") and (.decisions_checked | isint) and (.exact | isint)
        and (.within_one_batch | isint) and (.mismatched | isint) and (.off_by_one | isint)
        and (.exact_share | type == "number" and . >= 0 and . <= 1)
        and (.trajectory_checked | isint) and (.trajectory_exact_share | type == "number")
        and (.episodes_total | isint) and (.episodes_checkable | isint)
        and (.unchecked_reasons | type == "object" and all(.[]; isint))
        and (.exact + .mismatched <= .decisions_checked) end; "fidelity"),
    req(.summary; type == "object" and (.episodes | isint) and (.episodes_listed == ($d.episodes | length)) and .episodes_listed <= .episodes
        and (.policies | (keys | sort) == ($d.policies | map(.name) | sort))
        and all(.policies[]; (.nr_scanned | isint) and (.nr_reclaimed | isint) and (.calls | isint)
            and (.episodes_matching_recording | isint) and (.eagain | isint))
        and (.cgroups | type == "array" and all(.[]; (.cgroup | type == "string" or type == "null")
            and (.episodes | isint) and (.policies | keys | sort) == ($d.policies | map(.name) | sort)))
        and ([.cgroups[].episodes] | add // 0) == .episodes_replayed; "summary")
  ]
