%% Listeners by port: ensure_listener/2 starts the listener of a port
%% unless one is registered. Its options are a proplist that a helper reads
%% with proplists:get_value/3, and its owner tag an atom it writes out with
%% atom_to_list/1. No call in the program gives either argument, so the
%% harness makes both up: a made-up `1` crashes in proplists or in
%% atom_to_list/1 before the read (and no single filler suits both), while
%% values of the kinds those uses need (an atom, a list) reach it, and two
%% first calls both find no listener: the second register fails.
%% Expected: R001 confirmed, crash, arguments made up as an atom and a list.
-module(listener_opts).
-export([ensure_listener/2, test/0]).

ensure_listener(Owner, Opts) ->
    Port = opt(port, Opts, 4000),
    Tag = atom_to_list(Owner),
    case whereis(listener_name) of
%%       ^^^^^^^ R001 #1 read: whereis(listener_name) (confirmed, crash)
        undefined ->
            Pid = spawn(fun() -> listen(Tag, Port) end),
            register(listener_name, Pid),
%%          ^^^^^^^^ R001 #1 write: a concurrent first call registered it first
            {ok, Pid};
        Pid ->
            {ok, Pid}
    end.

opt(Key, Opts, Default) ->
    proplists:get_value(Key, Opts, Default).

listen(Tag, Port) ->
    receive
        stop -> {closed, Tag, Port}
    end.

test() ->
    Opts = lists:reverse([{port, 8080}]),
    Owner = list_to_atom(pid_to_list(self())),
    {ok, Pid} = ensure_listener(Owner, Opts),
    {ok, Pid} = ensure_listener(Owner, Opts),
    Pid ! stop,
    ok.
