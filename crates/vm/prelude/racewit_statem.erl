%% racewit prelude: the gen_server callback module behind gen_statem.
-module(racewit_statem).
-export([init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2]).

%% State: {Mod, Mode, StateName, Data}

init({_Name, Mod, Args}) ->
    case Mod:init(Args) of
        {ok, State, Data} -> {ok, {Mod, mode(Mod), State, Data}};
        {ok, State, Data, Actions} -> after_actions(Actions, {Mod, mode(Mod), State, Data}, ok);
        {stop, Reason} -> {stop, Reason};
        ignore -> ignore;
        Other -> {stop, {bad_return_from_init, Other}}
    end.

mode(Mod) ->
    case Mod:callback_mode() of
        [M | _] -> M;
        M -> M
    end.

handle_call({'$racewit_statem_call', Req}, From, S) -> event({call, From}, Req, S);
handle_call(_Other, _From, S) -> {reply, {error, badcall}, S}.

handle_cast({'$racewit_statem_cast', Msg}, S) -> event(cast, Msg, S);
handle_cast(_Other, S) -> {noreply, S}.

handle_info({'$racewit_statem_timeout', Kind, Msg}, S) -> event(Kind, Msg, S);
handle_info(Msg, S) -> event(info, Msg, S).

terminate(Reason, {Mod, _Mode, State, Data}) ->
    case erlang:function_exported(Mod, terminate, 3) of
        true -> Mod:terminate(Reason, State, Data);
        false -> ok
    end.

event(Type, Content, {Mod, Mode, State, Data} = S) ->
    Result = case Mode of
                 state_functions -> Mod:State(Type, Content, Data);
                 handle_event_function -> Mod:handle_event(Type, Content, State, Data)
             end,
    case Result of
        {next_state, NState, NData} -> {noreply, {Mod, Mode, NState, NData}};
        {next_state, NState, NData, Actions} -> after_actions(Actions, {Mod, Mode, NState, NData}, noreply);
        {keep_state, NData} -> {noreply, {Mod, Mode, State, NData}};
        {keep_state, NData, Actions} -> after_actions(Actions, {Mod, Mode, State, NData}, noreply);
        keep_state_and_data -> {noreply, S};
        {keep_state_and_data, Actions} -> after_actions(Actions, S, noreply);
        {repeat_state, NData} -> {noreply, {Mod, Mode, State, NData}};
        {repeat_state, NData, Actions} -> after_actions(Actions, {Mod, Mode, State, NData}, noreply);
        repeat_state_and_data -> {noreply, S};
        {repeat_state_and_data, Actions} -> after_actions(Actions, S, noreply);
        {stop, Reason} -> {stop, Reason, S};
        {stop, Reason, NData} -> {stop, Reason, {Mod, Mode, State, NData}};
        {stop_and_reply, Reason, Replies} -> gen_statem:reply(Replies), {stop, Reason, S};
        {stop_and_reply, Reason, Replies, NData} ->
            gen_statem:reply(Replies), {stop, Reason, {Mod, Mode, State, NData}};
        Other -> {stop, {bad_return_from_state_function, Other}, S}
    end.

after_actions(Actions, S, Kind) when is_list(Actions) ->
    Timeout = lists:foldl(fun action/2, infinity, Actions),
    case {Kind, Timeout} of
        {ok, infinity} -> {ok, S};
        {ok, {T, Msg, TKind}} -> erlang:send_after(T, self(), {'$racewit_statem_timeout', TKind, Msg}), {ok, S};
        {noreply, infinity} -> {noreply, S};
        {noreply, {T, Msg, TKind}} ->
            erlang:send_after(T, self(), {'$racewit_statem_timeout', TKind, Msg}),
            {noreply, S}
    end;
after_actions(Action, S, Kind) -> after_actions([Action], S, Kind).

action({reply, From, Reply}, Acc) -> gen_statem:reply(From, Reply), Acc;
action({state_timeout, T, Msg}, _Acc) when is_integer(T) -> {T, Msg, state_timeout};
action({timeout, T, Msg}, _Acc) when is_integer(T) -> {T, Msg, timeout};
action({{timeout, Name}, T, Msg}, _Acc) when is_integer(T) -> {T, Msg, {timeout, Name}};
action(T, _Acc) when is_integer(T) -> {T, T, timeout};
action(_Other, Acc) -> Acc.
