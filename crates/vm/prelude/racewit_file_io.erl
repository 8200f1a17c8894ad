%% racewit prelude: the io device of a file opened without `raw`, as OTP's
%% file_io_server is one: a process that holds the file's raw descriptor
%% (bif/files.rs), answers the io protocol's requests and `file`'s own
%% (`{file_request, From, ReplyAs, Request}`), and closes the file when the
%% process that opened it exits. `file`'s functions on such a device's pid
%% come here through request/3; handle/3 is a BIF.
-module(racewit_file_io).
-export([start/2, request/3]).

start(Fd, _Binary) ->
    Owner = self(),
    Pid = spawn(fun() -> init(Fd, Owner) end),
    {ok, Pid}.

init(Fd, Owner) ->
    Ref = erlang:monitor(process, Owner),
    loop(Fd, Owner, Ref).

loop(Fd, Owner, Ref) ->
    receive
        {file_request, From, ReplyAs, close} ->
            From ! {file_reply, ReplyAs, racewit_file_io:handle(close, Fd, [])},
            erlang:demonitor(Ref, [flush]),
            ok;
        {file_request, From, ReplyAs, {position, At}} ->
            From ! {file_reply, ReplyAs, racewit_file_io:handle(position, Fd, At)},
            loop(Fd, Owner, Ref);
        {file_request, From, ReplyAs, Sync} when Sync =:= sync; Sync =:= datasync ->
            From ! {file_reply, ReplyAs, racewit_file_io:handle(Sync, Fd, [])},
            loop(Fd, Owner, Ref);
        {file_request, From, ReplyAs, _} ->
            From ! {file_reply, ReplyAs, {error, enotsup}},
            loop(Fd, Owner, Ref);
        {io_request, From, ReplyAs, Request} ->
            From ! {io_reply, ReplyAs, io_request(Fd, Request)},
            loop(Fd, Owner, Ref);
        {'DOWN', Ref, process, Owner, _} ->
            _ = racewit_file_io:handle(close, Fd, []),
            ok
    end.

io_request(Fd, {put_chars, _Encoding, Chars}) ->
    racewit_file_io:handle(write, Fd, Chars);
io_request(Fd, {put_chars, Encoding, M, F, A}) ->
    io_request(Fd, {put_chars, Encoding, apply(M, F, A)});
io_request(Fd, {get_chars, _Encoding, _Prompt, N}) ->
    data(racewit_file_io:handle(read, Fd, N));
io_request(Fd, {get_line, _Encoding, _Prompt}) ->
    data(racewit_file_io:handle(read_line, Fd, []));
io_request(Fd, {requests, Requests}) ->
    lists:foldl(fun(R, ok) -> io_request(Fd, R); (_, Err) -> Err end, ok, Requests);
io_request(_Fd, _) ->
    {error, request}.

data({ok, Data}) -> Data;
data(Other) -> Other.

request(Pid, close, _) ->
    case file_request(Pid, close) of
        {error, terminated} -> ok;
        Reply -> Reply
    end;
request(Pid, write, Data) ->
    io_call(Pid, {put_chars, latin1, Data});
request(Pid, read, N) ->
    case io_call(Pid, {get_chars, latin1, '', N}) of
        Data when is_list(Data); is_binary(Data) -> {ok, Data};
        Other -> Other
    end;
request(Pid, read_line, _) ->
    case io_call(Pid, {get_line, latin1, ''}) of
        Data when is_list(Data); is_binary(Data) -> {ok, Data};
        Other -> Other
    end;
request(Pid, position, At) ->
    file_request(Pid, {position, At});
request(Pid, Sync, _) ->
    file_request(Pid, Sync).

file_request(Pid, Request) ->
    Ref = erlang:monitor(process, Pid),
    Pid ! {file_request, self(), Ref, Request},
    receive
        {file_reply, Ref, Reply} ->
            erlang:demonitor(Ref, [flush]),
            Reply;
        {'DOWN', Ref, _, _, _} ->
            {error, terminated}
    end.

io_call(Pid, Request) ->
    Ref = erlang:monitor(process, Pid),
    Pid ! {io_request, self(), Ref, Request},
    receive
        {io_reply, Ref, Reply} ->
            erlang:demonitor(Ref, [flush]),
            Reply;
        {'DOWN', Ref, _, _, _} ->
            {error, terminated}
    end.
