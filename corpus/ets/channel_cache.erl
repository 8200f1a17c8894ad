%% The twin of channel_cache_ok: share/1 gives the connection a public
%% channel table (a record update that sets the field) so that helper
%% processes can adjust windows themselves. Two helpers read the same
%% window and both write back their own sum: one adjustment is lost.
%% Expected: R002 confirmed (non_serializable).
-module(channel_cache).
-export([new/0, open/2, share/1, handle_msg/2, window/2, test/0]).

-record(link, {cache, seed = 0, requests = []}).
-record(channel, {id, window = 0}).

new() ->
    #link{cache = ets:new(chans, [set, {keypos, #channel.id}])}.

open(Id, #link{seed = Seed, requests = Rs} = C) ->
    ets:insert(C#link.cache, #channel{id = Id}),
    C#link{seed = Seed + 1, requests = [Id | Rs]}.

share(C) ->
    C#link{cache = ets:new(chans, [set, public, {keypos, #channel.id}])}.

handle_msg({adjust, Id, N}, #link{cache = Cache} = C) ->
    [#channel{window = W} = Ch] = ets:lookup(Cache, Id),
%%                                ^^^^^^^^^^ R002 #1 read: ets <tid>/Id (confirmed, non_serializable)
    ets:insert(Cache, Ch#channel{window = W + N}),
%%  ^^^^^^^^^^ R002 #1 write: the other helper's adjustment is overwritten
    C;
handle_msg(_, C) ->
    C.

window(Id, #link{cache = Cache}) ->
    [#channel{window = W}] = ets:lookup(Cache, Id),
    W.

test() ->
    C = open(1, share(new())),
    Self = self(),
    Helpers = [spawn(fun() -> handle_msg({adjust, 1, N}, C), Self ! {done, self()} end)
               || N <- [5, 3]],
    [receive {done, H} -> ok end || H <- Helpers],
    window(1, C).
