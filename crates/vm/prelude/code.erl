%% racewit prelude: the code server, modelled. Every module racewit has
%% (the analysed code, the libraries, the prelude, the BIF modules) counts
%% as loaded from the start, as in an embedded node; paths come from the
%% installation the loader found (`racewit_apps`). An OTP module's object
%% file is `LIBDIR/APP-VSN/ebin/M.beam`; an analysed module's is its
%% source path with `.beam` (racewit compiles nothing to disk); a module
%% loaded at run time (`code:load_binary/3`, a BIF) has the file name it
%% was loaded with. Changing the code path or loading object files from
%% disk touches the host: never run.
-module(code).
-export([root_dir/0, lib_dir/0, lib_dir/1, lib_dir/2, priv_dir/1,
         is_loaded/1, ensure_loaded/1, ensure_modules_loaded/1, load_file/1,
         which/1, objfile_extension/0, is_sticky/1, stick_dir/1, unstick_dir/1,
         get_mode/0,
         module_status/1, modified_modules/0, is_module_native/1]).

root_dir() -> racewit_apps:root_dir().

lib_dir() -> filename:join(root_dir(), "lib").

lib_dir(App) when is_atom(App) ->
    case racewit_apps:dir(App) of
        undefined -> {error, bad_name};
        Dir -> Dir
    end;
lib_dir(App) when is_list(App) -> lib_dir(list_to_atom(App));
lib_dir(_) -> {error, bad_name}.

lib_dir(App, SubDir) ->
    case lib_dir(App) of
        {error, _} = E -> E;
        Dir -> filename:join(Dir, atom_to_list(SubDir))
    end.

priv_dir(App) ->
    case lib_dir(App) of
        {error, _} = E -> E;
        Dir -> filename:join(Dir, "priv")
    end.

is_loaded(M) when is_atom(M) ->
    case racewit_code:loaded_file(M) of
        File when is_list(File) -> {file, File};
        _ ->
            case which(M) of
                non_existing -> false;
                Path -> {file, Path}
            end
    end;
is_loaded(M) -> erlang:error(function_clause, [M]).

ensure_loaded(M) when is_atom(M) ->
    case racewit_code:origin(M) of
        false -> {error, nofile};
        _ -> {module, M}
    end;
ensure_loaded(M) -> erlang:error(function_clause, [M]).

ensure_modules_loaded(Ms) ->
    case [{M, nofile} || M <- Ms, ensure_loaded(M) =:= {error, nofile}] of
        [] -> ok;
        Bad -> {error, lists:reverse(Bad)}   % OTP's order: the last first
    end.

load_file(M) when is_atom(M) ->
    case is_sticky(M) of
        true -> {error, sticky_directory};
        false -> ensure_loaded(M)
    end;
load_file(M) -> erlang:error(function_clause, [M]).

which(M) when is_atom(M) ->
    case racewit_code:loaded_file(M) of
        File when is_list(File) -> File;
        _ -> which_origin(M)
    end.

which_origin(M) ->
    case racewit_code:origin(M) of
        false -> non_existing;
        Origin ->
            case lists:member(M, erlang:pre_loaded()) of
                true -> preloaded;
                false when Origin =:= user -> user_object(M);
                false ->
                    case otp_object(M) of
                        undefined when Origin =:= builtin -> preloaded;
                        undefined -> user_object(M);
                        Path -> Path
                    end
            end
    end.

user_object(M) ->
    case racewit_code:source(M) of
        undefined -> non_existing;
        Src -> filename:rootname(Src) ++ ".beam"
    end.

otp_object(M) ->
    Apps = [A || A <- racewit_apps:all(),
                 case racewit_apps:resource(A) of
                     {application, A, Props} ->
                         lists:member(M, proplists:get_value(modules, Props, []));
                     _ -> false
                 end],
    case Apps of
        [A | _] -> filename:join([racewit_apps:dir(A), "ebin", atom_to_list(M) ++ ".beam"]);
        [] -> undefined
    end.

objfile_extension() -> ".beam".
%% Sticky directories, as a node started by `erl` has them: kernel's and
%% stdlib's ebin, and the preloaded modules. A module is
%% sticky when its object file's directory is; stick_dir/unstick_dir take
%% a directory the code server can list (an application's ebin, or the
%% directory of an analysed module's object file) and answer `error` for
%% any other.
is_sticky(M) when is_atom(M) ->
    case which(M) of
        preloaded -> true;
        Path when is_list(Path) -> lists:member(filename:dirname(Path), sticky_dirs());
        _ -> false
    end.

stick_dir(Dir) -> set_sticky(Dir, true).
unstick_dir(Dir) -> set_sticky(Dir, false).

set_sticky(Dir0, Stick) when is_list(Dir0) ->
    Dir = filename:join([Dir0]),
    case lists:member(Dir, code_dirs()) of
        false -> error;
        true ->
            Others = lists:delete(Dir, sticky_dirs()),
            racewit_world:put({code, sticky_dirs},
                              case Stick of
                                  true -> [Dir | Others];
                                  false -> Others
                              end),
            ok
    end;
set_sticky(Dir, Stick) ->
    erlang:error(function_clause, [Dir, Stick]).

sticky_dirs() ->
    case racewit_world:get({code, sticky_dirs}, undefined) of
        undefined ->
            [filename:join(D, "ebin")
             || A <- [kernel, stdlib], D <- [racewit_apps:dir(A)], is_list(D)];
        Dirs -> Dirs
    end.

%% The directories the code server can list: each application's ebin and
%% the directories of the analysed modules' object files.
code_dirs() ->
    [filename:join(D, "ebin") || A <- racewit_apps:all(), D <- [racewit_apps:dir(A)], is_list(D)]
    ++ [filename:dirname(filename:rootname(S) ++ ".beam")
        || M <- racewit_code:user_modules(), S <- [racewit_code:source(M)], is_list(S)].
get_mode() -> interactive.
module_status(M) ->
    case racewit_code:origin(M) of
        false -> not_loaded;
        _ -> loaded
    end.
modified_modules() -> [].
is_module_native(M) ->
    case racewit_code:origin(M) of
        false -> undefined;
        _ -> false
    end.
