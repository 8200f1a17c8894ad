%% The twin of badge_ok: the same server, but quick_grant/1 also calls
%% badge_store:bump/1 directly in the caller's process, so a bump there can
%% come between the server's read and write (see badge_store.erl).
%% Expected: R002 reported.
-module(badge).
-behaviour(gen_server).
-export([start/0, grant/1, quick_grant/1, count/1, stop/0, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() -> gen_server:start({local, ?MODULE}, ?MODULE, [], []).

stop() -> gen_server:stop(?MODULE).

grant(User) -> gen_server:call(?MODULE, {grant, User}).

quick_grant(User) -> badge_store:bump(User).

count(User) ->
    case ets:lookup(badge_tab, User) of
        [{User, N}] -> N;
        [] -> 0
    end.

init([]) ->
    ets:new(badge_tab, [named_table, public]),
    {ok, #{}}.

handle_call({grant, User}, _From, S) ->
    {reply, badge_store:bump(User), S}.

handle_cast(_, S) -> {noreply, S}.

test() ->
    {ok, _} = start(),
    Self = self(),
    P1 = spawn(fun() -> Self ! {self(), grant(ann)} end),
    P2 = spawn(fun() -> Self ! {self(), quick_grant(ann)} end),
    [receive {P, _} -> ok end || P <- [P1, P2]],
    N = count(ann),
    stop(),
    N.
