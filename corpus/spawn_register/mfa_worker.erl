%% Import workers started with spawn/3 and registered by file tag.  A worker
%% given an empty batch returns immediately, so the register/2 that follows
%% the spawn can hit a dead pid.  Expected: R004 confirmed, crash, bound 1.
-module(mfa_worker).
-export([start_import/2, import/2, status/1, test/0]).

start_import(Tag, Rows) when is_atom(Tag), is_list(Rows) ->
    Pid = spawn(?MODULE, import, [Tag, Rows]),
%%        ^^^^^ R004 #1 read: spawn/3 of import/2, which may return at once (confirmed, crash)
    register(Tag, Pid),
%%  ^^^^^^^^ R004 #1 write: badarg if the import already ended
    Pid.

import(_Tag, []) ->
    done;
import(Tag, Rows) ->
    Valid = [R || R <- Rows, is_tuple(R)],
    receive
        {status, From} -> From ! {Tag, length(Valid)}
    after 50 -> ok
    end,
    done.

status(Tag) ->
    case whereis(Tag) of
        undefined -> finished;
        Pid ->
            Pid ! {status, self()},
            receive {Tag, N} -> {running, N} after 200 -> unknown end
    end.

test() ->
    Self = self(),
    P1 = spawn(fun() -> Self ! {self(), catch start_import(import_a, [{1, x}, {2, y}])} end),
    P2 = spawn(fun() -> Self ! {self(), catch start_import(import_b, [])} end),
    R1 = receive {P1, A} -> is_pid(A) end,
    R2 = receive {P2, B} -> is_pid(B) end,
    {R1, R2, status(import_a)}.
