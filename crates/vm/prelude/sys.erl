%% racewit prelude: the sys calls that inspect a behaviour's state.
-module(sys).
-export([get_state/1, get_state/2, replace_state/2, replace_state/3, get_status/1,
         get_status/2, suspend/1, resume/1, statistics/2, trace/2]).

get_state(Name) -> get_state(Name, 5000).
get_state(Name, Timeout) -> call(Name, get_state, Timeout, get_state).
replace_state(Name, F) -> replace_state(Name, F, 5000).
replace_state(Name, F, Timeout) -> call(Name, {replace_state, F}, Timeout, replace_state).
get_status(Name) -> get_status(Name, 5000).
get_status(Name, Timeout) -> call(Name, get_status, Timeout, get_status).
suspend(Name) -> call(Name, suspend, infinity, suspend).
resume(Name) -> call(Name, resume, infinity, resume).
statistics(Name, _Flag) -> call(Name, statistics, infinity, statistics).
trace(Name, _Flag) -> call(Name, trace, infinity, trace).

call(Name, Req, Timeout, Fun) ->
    Pid = case Name of
              P when is_pid(P) -> P;
              A when is_atom(A) -> whereis(A);
              {local, A} -> whereis(A);
              _ -> undefined
          end,
    case Pid of
        undefined -> exit({noproc, {sys, Fun, [Name]}});
        _ ->
            MRef = erlang:monitor(process, Pid),
            Pid ! {system, {self(), MRef}, Req},
            receive
                {MRef, Reply} -> erlang:demonitor(MRef, [flush]), Reply;
                {'DOWN', MRef, _, _, Reason} -> exit({Reason, {sys, Fun, [Name]}})
            after Timeout ->
                erlang:demonitor(MRef, [flush]),
                exit({timeout, {sys, Fun, [Name]}})
            end
    end.
