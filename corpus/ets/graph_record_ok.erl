%% A small graph library in the style of OTP's digraph: new/1 makes a
%% protected (or private) table and hands it to the caller inside a record;
%% add_node/1 reads the id counter and writes it back. Only the process
%% that made the graph can write its table, so no other process can come
%% between the read and the write.
%% Expected: R002 filtered (the table in the record is not public).
-module(graph_record_ok).
-export([new/1, add_node/1, node_count/1, test/0]).

-record(graph, {nodes = none, counter = none}).

new(Opts) ->
    Access = access(Opts, protected),
    N = ets:new(nodes, [set, Access]),
    C = ets:new(counter, [set, Access]),
    ets:insert(C, {next, 0}),
    #graph{nodes = N, counter = C}.

access([private | _], _) -> private;
access([protected | _], _) -> protected;
access([_ | T], A) -> access(T, A);
access([], A) -> A.

add_node(G) ->
    C = G#graph.counter,
    [{next, Id}] = ets:lookup(C, next),
%%                 ^^^^^^^^^^ R002 #1 read: ets <tid>/next (filtered: protected, in a record)
    ets:insert(C, {next, Id + 1}),
%%  ^^^^^^^^^^ R002 #1 write: only the graph's owner can write
    ets:insert(G#graph.nodes, {Id}),
    Id.

node_count(G) ->
    length(ets:tab2list(G#graph.nodes)).

test() ->
    G = new([private]),
    [add_node(G) || _ <- [1, 2, 3]],
    3 = node_count(G),
    ok.
