%% A badge server: grant/1 asks the registered server, whose handle_call
%% bumps the user's count through badge_store_ok:bump/1.  That helper is
%% exported from a plain module, but the program calls it only from this
%% server's callback, so every bump runs in the one server process, one
%% request at a time (see badge_store_ok.erl).
%% Expected: R002 filtered.
-module(badge_ok).
-behaviour(gen_server).
-export([start/0, grant/1, count/1, stop/0, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() -> gen_server:start({local, ?MODULE}, ?MODULE, [], []).

stop() -> gen_server:stop(?MODULE).

grant(User) -> gen_server:call(?MODULE, {grant, User}).

count(User) ->
    case ets:lookup(badge_ok_tab, User) of
        [{User, N}] -> N;
        [] -> 0
    end.

init([]) ->
    ets:new(badge_ok_tab, [named_table, public]),
    {ok, #{}}.

handle_call({grant, User}, _From, S) ->
    {reply, badge_store_ok:bump(User), S}.

handle_cast(_, S) -> {noreply, S}.

test() ->
    {ok, _} = start(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), grant(ann)} end) || _ <- [1, 2]],
    [receive {P, _} -> ok end || P <- Pids],
    N = count(ann),
    stop(),
    N.
