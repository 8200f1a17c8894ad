%% racewit prelude: the parts of proc_lib that behaviours and users call.
%% A process it starts knows its parent and ancestors ('$ancestors', the
%% parent by its registered name when it has one) and its initial call
%% ('$initial_call'), as OTP's does; OTP's crash reports are left out (they
%% are logging). The synchronous starts follow OTP 25: start/3,4,5 wait on
%% a monitor, start_link/3,4,5 on the link (an 'EXIT' the caller traps is
%% taken as the start's failure; an untrapped one kills the caller), and
%% start_monitor/3,4,5 return the monitor with the answer.
-module(proc_lib).
-export([spawn/1, spawn/3, spawn_link/1, spawn_link/3, spawn_opt/2, spawn_opt/4,
         start/3, start/4, start/5, start_link/3, start_link/4, start_link/5,
         start_monitor/3, start_monitor/4, start_monitor/5,
         init_ack/1, init_ack/2, init_fail/2, init_p/3, init_p/5]).

spawn(F) when is_function(F) ->
    erlang:spawn(?MODULE, init_p, [my_name(), ancestors(), F]).
spawn(M, F, A) when is_atom(M), is_atom(F), is_list(A) ->
    erlang:spawn(?MODULE, init_p, [my_name(), ancestors(), M, F, A]).
spawn_link(F) when is_function(F) ->
    erlang:spawn_link(?MODULE, init_p, [my_name(), ancestors(), F]).
spawn_link(M, F, A) when is_atom(M), is_atom(F), is_list(A) ->
    erlang:spawn_link(?MODULE, init_p, [my_name(), ancestors(), M, F, A]).
spawn_opt(F, Opts) when is_function(F) ->
    erlang:spawn_opt(?MODULE, init_p, [my_name(), ancestors(), F], Opts).
spawn_opt(M, F, A, Opts) when is_atom(M), is_atom(F), is_list(A) ->
    erlang:spawn_opt(?MODULE, init_p, [my_name(), ancestors(), M, F, A], Opts).

init_p(Parent, Ancestors, F) ->
    put('$ancestors', [Parent | Ancestors]),
    put('$initial_call', fun_mfa(F)),
    F().
init_p(Parent, Ancestors, M, F, A) ->
    put('$ancestors', [Parent | Ancestors]),
    put('$initial_call', {M, F, length(A)}),
    apply(M, F, A).

fun_mfa(F) ->
    {module, M} = erlang:fun_info(F, module),
    {name, N} = erlang:fun_info(F, name),
    {arity, A} = erlang:fun_info(F, arity),
    {M, N, A}.

my_name() ->
    case process_info(self(), registered_name) of
        {registered_name, Name} -> Name;
        _ -> self()
    end.

ancestors() ->
    case get('$ancestors') of
        A when is_list(A) -> A;
        _ -> []
    end.

start(M, F, A) when is_atom(M), is_atom(F), is_list(A) -> start(M, F, A, infinity).
start(M, F, A, Timeout) when is_atom(M), is_atom(F), is_list(A) ->
    sync_start(erlang:spawn_monitor(?MODULE, init_p, [my_name(), ancestors(), M, F, A]),
               Timeout).
start(M, F, A, Timeout, SpawnOpts) when is_atom(M), is_atom(F), is_list(A) ->
    no_monitor_opt(M, F, A, Timeout, SpawnOpts),
    sync_start(?MODULE:spawn_opt(M, F, A, [monitor | SpawnOpts]), Timeout).

start_link(M, F, A) when is_atom(M), is_atom(F), is_list(A) -> start_link(M, F, A, infinity).
start_link(M, F, A, Timeout) when is_atom(M), is_atom(F), is_list(A) ->
    sync_start_link(?MODULE:spawn_link(M, F, A), Timeout).
start_link(M, F, A, Timeout, SpawnOpts) when is_atom(M), is_atom(F), is_list(A) ->
    no_monitor_opt(M, F, A, Timeout, SpawnOpts),
    sync_start_link(?MODULE:spawn_opt(M, F, A, [link | SpawnOpts]), Timeout).

start_monitor(M, F, A) when is_atom(M), is_atom(F), is_list(A) ->
    start_monitor(M, F, A, infinity).
start_monitor(M, F, A, Timeout) when is_atom(M), is_atom(F), is_list(A) ->
    sync_start_monitor(
      erlang:spawn_monitor(?MODULE, init_p, [my_name(), ancestors(), M, F, A]), Timeout).
start_monitor(M, F, A, Timeout, SpawnOpts) when is_atom(M), is_atom(F), is_list(A) ->
    no_monitor_opt(M, F, A, Timeout, SpawnOpts),
    sync_start_monitor(?MODULE:spawn_opt(M, F, A, [monitor | SpawnOpts]), Timeout).

%% The monitor is the start's own: a caller's `monitor` option is badarg.
no_monitor_opt(M, F, A, Timeout, Opts) ->
    case lists:member(monitor, Opts) orelse lists:keymember(monitor, 1, Opts) of
        true -> erlang:error(badarg, [M, F, A, Timeout, Opts]);
        false -> ok
    end.

sync_start({Pid, Ref}, Timeout) ->
    receive
        {ack, Pid, Return} ->
            erlang:demonitor(Ref, [flush]),
            Return;
        {'DOWN', Ref, process, Pid, Reason} ->
            {error, Reason}
    after Timeout ->
        erlang:demonitor(Ref, [flush]),
        kill_flush(Pid),
        {error, timeout}
    end.

sync_start_link(Pid, Timeout) ->
    receive
        {ack, Pid, Return} -> Return;
        {'EXIT', Pid, Reason} -> {error, Reason}
    after Timeout ->
        kill_flush(Pid),
        {error, timeout}
    end.

sync_start_monitor({Pid, Ref}, Timeout) ->
    receive
        {ack, Pid, Return} ->
            {Return, Ref};
        {'DOWN', Ref, process, Pid, Reason} = Down ->
            self() ! Down,
            {{error, Reason}, Ref}
    after Timeout ->
        kill_flush(Pid),
        {{error, timeout}, Ref}
    end.

kill_flush(Pid) ->
    unlink(Pid),
    exit(Pid, kill),
    receive {'EXIT', Pid, _} -> ok after 0 -> ok end,
    ok.

init_ack(Return) ->
    [Parent | _] = get('$ancestors'),
    init_ack(Parent, Return).
init_ack(Parent, Return) -> Parent ! {ack, self(), Return}, ok.
init_fail(Return, {Class, Reason}) ->
    init_ack(Return),
    erlang:raise(Class, Reason, []).
