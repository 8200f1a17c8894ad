%% A connection handler in the style of ssh's: the connection process makes
%% its channel table (protected, the default) and keeps it in a field of its
%% connection record; exported helpers take the record, update other fields
%% and hand it back. handle_msg/2 reads a channel and writes it back: only
%% the table's owner can write it, so no other process comes in between.
%% Expected: R002 filtered (every value stored in #conn.cache is the protected table).
-module(channel_cache_ok).
-export([new/0, open/2, handle_msg/2, window/2, test/0]).

-record(conn, {cache, seed = 0, requests = []}).
-record(chan, {id, window = 0}).

new() ->
    #conn{cache = ets:new(chans, [set, {keypos, #chan.id}])}.

open(Id, #conn{seed = Seed, requests = Rs} = C) ->
    ets:insert(C#conn.cache, #chan{id = Id}),
    C#conn{seed = Seed + 1, requests = [Id | Rs]}.

handle_msg({adjust, Id, N}, #conn{cache = Cache} = C) ->
    [#chan{window = W} = Ch] = ets:lookup(Cache, Id),
%%                             ^^^^^^^^^^ R002 #1 read: ets <tid>/Id (filtered: protected, in a record field)
    ets:insert(Cache, Ch#chan{window = W + N}),
%%  ^^^^^^^^^^ R002 #1 write: only the connection's owner can write
    C;
handle_msg(_, C) ->
    C.

window(Id, #conn{cache = Cache}) ->
    [#chan{window = W}] = ets:lookup(Cache, Id),
    W.

test() ->
    C0 = new(),
    C1 = open(1, C0),
    C2 = handle_msg({adjust, 1, 5}, C1),
    C3 = handle_msg({adjust, 1, 3}, C2),
    8 = window(1, C3),
    ok.
