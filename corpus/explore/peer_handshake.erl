%% Two peers meet through the registry: each registers itself, then looks for
%% the other.  The one that finds no peer waits for a hello; the one that finds
%% its peer sends hello and waits for welcome.  If both register before either
%% looks, both send hello and both wait for welcome: each waits for the
%% other's message.  Expected: explore deadlock, bound 1.
-module(peer_handshake).
-export([peer/3, test/0]).

peer(Me, Other, Parent) ->
    register(Me, self()),
    Result = case whereis(Other) of
                 undefined ->
                     receive
                         {hello, From} -> From ! welcome, accepted
                     end;
                 Pid ->
                     Pid ! {hello, self()},
                     receive
                         welcome -> connected
                     end
             end,
    Parent ! {Me, Result}.

test() ->
    Self = self(),
    spawn(fun() -> peer(left_peer, right_peer, Self) end),
    spawn(fun() -> peer(right_peer, left_peer, Self) end),
    lists:sort([receive {Name, R} -> {Name, R} after 500 -> stuck end
                || Name <- [left_peer, right_peer]]).
