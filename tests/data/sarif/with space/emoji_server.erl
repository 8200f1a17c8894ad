%% Test data for the SARIF tests: name_server's whereis/register race, with
%% non-ASCII text before the read on its line (UTF-16 columns), in a
%% directory whose name has a space (percent-encoded URIs).
-module(emoji_server).
-export([ensure_started/0]).

ensure_started() ->
    Label = "🎉 é", case whereis(emoji_server) of
        undefined ->
            Pid = spawn(fun() -> receive stop -> Label end end),
            register(emoji_server, Pid),
            Pid;
        Pid ->
            Pid
    end.
