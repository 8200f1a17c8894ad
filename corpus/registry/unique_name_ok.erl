%% Per-connection helper processes registered under a name derived from the
%% caller's own pid, so two callers can never compute the same name: the
%% whereis/register pair looks like check-then-register but cannot race.
%% Expected: filtered (names can never be equal across processes).
-module(unique_name_ok).
-export([helper_for_self/0, helper_name/1, stop_helper/0, test/0]).

helper_name(Owner) when is_pid(Owner) ->
    list_to_atom("conn_helper_" ++ pid_to_list(Owner)).

helper_for_self() ->
    Name = helper_name(self()),
    case whereis(Name) of
%%       ^^^^^^^ R001 #1 read (filtered): name derived from self()
        undefined ->
            Pid = spawn(fun() -> helper_loop(0) end),
            register(Name, Pid),
%%          ^^^^^^^^ R001 #1 write (filtered): no other process can build this name
            Pid;
        Pid ->
            Pid
    end.

stop_helper() ->
    case whereis(helper_name(self())) of
        undefined -> ok;
        Pid -> Pid ! stop, ok
    end.

helper_loop(N) ->
    receive
        {bump, From} -> From ! {count, N + 1}, helper_loop(N + 1);
        stop -> ok
    end.

test() ->
    Self = self(),
    Pids = [spawn(fun() ->
                          H1 = helper_for_self(),
                          H2 = helper_for_self(),
                          stop_helper(),
                          Self ! {self(), H1 =:= H2}
                  end) || _ <- [1, 2]],
    [receive {P, R} -> R end || P <- Pids].
