%% A quota server: quota/1 is an exported helper any process may call, but the
%% read-modify-write runs in handle_call, and only the server writes quotas
%% (set/2 is local).  The path from quota/1's read returns into the callback.
%% Expected: filtered (the whole path runs in the one server).
-module(helper_read_ok).
-behaviour(gen_server).
-export([start/0, quota/1, use/1, stop/0, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() -> gen_server:start({local, ?MODULE}, ?MODULE, [], []).

stop() -> gen_server:stop(?MODULE).

use(User) -> gen_server:call(?MODULE, {use, User}).

quota(User) ->
    case ets:lookup(quota_tab, User) of
%%       ^^^^^^^^^^ R002 #1 read (filtered): this path runs in the server
        [{User, N}] -> N;
        [] -> 0
    end.

init([]) ->
    ets:new(quota_tab, [named_table, public]),
    {ok, #{}}.

handle_call({use, User}, _From, S) ->
    N = quota(User),
    {reply, set(User, N + 1), S}.

handle_cast(_, S) -> {noreply, S}.

set(User, N) ->
    ets:insert(quota_tab, {User, N}).
%%  ^^^^^^^^^^ R002 #1 write (filtered): only the server writes quotas

test() ->
    {ok, _} = start(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), use(ann)} end) || _ <- [1, 2]],
    [receive {P, _} -> ok end || P <- Pids],
    N = quota(ann),
    stop(),
    N.
