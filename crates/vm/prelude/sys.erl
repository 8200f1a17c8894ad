%% racewit prelude: the sys calls that inspect a behaviour's state.
-module(sys).
-export([get_state/1, get_state/2, replace_state/2, replace_state/3, get_status/1,
         get_status/2, suspend/1, resume/1, statistics/2, trace/2,
         debug_options/1, handle_debug/4, get_debug/3, print_log/1]).

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

%% A behaviour of the program's own (gen_leader, say) keeps sys's debug
%% structure. racewit runs it with no debug facility on: options sys
%% ignores are ignored, as OTP's sys does, and one that would switch a
%% facility on (tracing, logging, statistics, a log file, an installed
%% function) parks the caller, named.
debug_options(Options) when is_list(Options) -> debug_options(Options, []).

debug_options([], Debug) -> Debug;
debug_options([O | _], _Debug)
  when O =:= trace; O =:= log; O =:= statistics;
       element(1, O) =:= log; element(1, O) =:= log_to_file; element(1, O) =:= install ->
    racewit_world:unsupported("sys:debug_options/1 with the option", O);
debug_options([_ | T], Debug) -> debug_options(T, Debug).

handle_debug([], _FormFunc, _State, _Event) -> [];
handle_debug(Debug, _FormFunc, _State, _Event) ->
    racewit_world:unsupported("sys:handle_debug/4 with the debug options",
                              [element(1, D) || D <- Debug]).

get_debug(_Item, [], Default) -> Default;
get_debug(Item, Debug, _Default) ->
    racewit_world:unsupported("sys:get_debug/3 with the debug options",
                              {Item, [element(1, D) || D <- Debug]}).

print_log([]) -> ok;
print_log(Debug) ->
    racewit_world:unsupported("sys:print_log/1 with the debug options",
                              [element(1, D) || D <- Debug]).
