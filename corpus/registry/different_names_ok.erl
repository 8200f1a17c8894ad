%% A primary/standby pair: the standby starts only when the primary is
%% missing, and registers under its own name.  The read is on `primary_db`
%% and the write on `standby_db`; the two constant names can never be equal.
%% Expected: filtered.
-module(different_names_ok).
-export([start_primary/0, ensure_standby/0, stop/0, test/0]).

start_primary() ->
    Pid = spawn(fun() -> db_loop(primary) end),
    register(primary_db, Pid),
    Pid.

ensure_standby() ->
    case whereis(primary_db) of
%%       ^^^^^^^ R001 #1 read (filtered): name primary_db
        undefined ->
            Pid = spawn(fun() -> db_loop(standby) end),
            catch register(standby_db, Pid),
%%                ^^^^^^^^ R001 #1 write (filtered): name standby_db differs from primary_db
            {standby, Pid};
        Pid ->
            {primary, Pid}
    end.

stop() ->
    [P ! stop || N <- [primary_db, standby_db], (P = whereis(N)) =/= undefined],
    ok.

db_loop(Role) ->
    receive
        {query, From, Q} -> From ! {Role, Q}, db_loop(Role);
        stop -> ok
    end.

test() ->
    start_primary(),
    {primary, _} = ensure_standby(),
    stop(),
    timer:sleep(10),
    {Role, _} = ensure_standby(),
    stop(),
    Role.
