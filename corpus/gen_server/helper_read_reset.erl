%% The quota server again, but reset/1 writes the quota from the caller's
%% process: a reset between the server's read in quota/1 and its write is
%% overwritten with the old count plus one (2, where any order gives 0 or 1).
%% Expected: R002 reported (a client's write can come between).
-module(helper_read_reset).
-behaviour(gen_server).
-export([start/0, quota/1, use/1, reset/1, stop/0, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() -> gen_server:start({local, ?MODULE}, ?MODULE, [], []).

stop() -> gen_server:stop(?MODULE).

use(User) -> gen_server:call(?MODULE, {use, User}).

reset(User) -> set(User, 0).

quota(User) ->
    case ets:lookup(quota_tab_r, User) of
%%       ^^^^^^^^^^ R002 #1 read: ets quota_tab_r/<User>
        [{User, N}] -> N;
        [] -> 0
    end.

init([]) ->
    ets:new(quota_tab_r, [named_table, public]),
    {ok, #{}}.

handle_call({use, User}, _From, S) ->
    N = quota(User),
    {reply, set(User, N + 1), S}.

handle_cast(_, S) -> {noreply, S}.

set(User, N) ->
    ets:insert(quota_tab_r, {User, N}).
%%  ^^^^^^^^^^ R002 #1 write: overwrites a reset made meanwhile

test() ->
    {ok, _} = start(),
    true = use(ann),
    Self = self(),
    P1 = spawn(fun() -> Self ! {self(), use(ann)} end),
    P2 = spawn(fun() -> Self ! {self(), reset(ann)} end),
    [receive {P, _} -> ok end || P <- [P1, P2]],
    N = quota(ann),
    stop(),
    N.
