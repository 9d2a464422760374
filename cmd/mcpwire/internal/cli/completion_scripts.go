package cli

// The scripts are thin: each hands the words typed so far to
// "mcpwire __complete" (completion_words.go), which knows the commands,
// flags and servers, and shows its answer the shell's way. The first line
// of the answer says what to complete (words, files, dirs or default);
// each candidate may carry a tab and a description, which zsh and fish
// show and bash drops.

// completionScripts are the scripts by shell name.
var completionScripts = map[string]string{
	"bash": bashCompletion,
	"zsh":  zshCompletion,
	"fish": fishCompletion,
}

// bashCompletion splits the line itself at spaces, not at bash's
// COMP_WORDBREAKS, so that a URI (demo://x) or --flag=value stays one
// word for mcpwire; bash then replaces only the part of the word after
// its last break character, so that part is what COMPREPLY holds.
const bashCompletion = `# bash completion for mcpwire (mcpwire completion bash)
_mcpwire() {
    local line=${COMP_LINE:0:COMP_POINT}
    local -a words reply
    read -ra words <<< "$line"
    [[ $line =~ [[:space:]]$ ]] && words+=("")
    local IFS=$'\n'
    reply=($("${words[0]}" __complete "${words[@]:1}" 2>/dev/null))
    local cur=${COMP_WORDS[COMP_CWORD]}
    COMPREPLY=()
    case ${reply[0]} in
    files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    dirs) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
    default) compopt -o bashdefault -o default 2>/dev/null ;;
    words)
        local word=${words[${#words[@]}-1]} part breaks=${COMP_WORDBREAKS//[^:=]/}
        part=$word
        [[ -n $breaks ]] && part=${word##*[$breaks]}
        local strip=${word%"$part"} c
        for c in "${reply[@]:1}"; do
            c=${c%%$'\t'*}
            COMPREPLY+=("${c#"$strip"}")
        done ;;
    esac
}
complete -F _mcpwire mcpwire
`

const zshCompletion = `#compdef mcpwire
# zsh completion for mcpwire (mcpwire completion zsh)
_mcpwire() {
  local -a reply items
  local l
  reply=("${(@f)$(${words[1]} __complete "${(@Q)words[2,CURRENT]}" 2>/dev/null)}")
  case ${reply[1]} in
    files|default) _files ;;
    dirs) _files -/ ;;
    words)
      for l in "${(@)reply[2,-1]}"; do
        [[ -z $l ]] && continue
        if [[ $l == *$'\t'* ]]; then
          items+=("${${l%%$'\t'*}//:/\\:}:${l#*$'\t'}")
        else
          items+=("${l//:/\\:}")
        fi
      done
      _describe -t values mcpwire items ;;
  esac
}
if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then
  _mcpwire "$@"
else
  compdef _mcpwire mcpwire
fi
`

const fishCompletion = `# fish completion for mcpwire (mcpwire completion fish)
function __mcpwire_complete
    set -l words (commandline -opc)
    set -l cmd $words[1]
    set -e words[1]
    set -l cur (commandline -ct)
    set -l reply ($cmd __complete $words "$cur" 2>/dev/null)
    switch "$reply[1]"
        case files default
            __fish_complete_path "$cur"
        case dirs
            __fish_complete_directories "$cur"
        case words
            set -e reply[1]
            printf '%s\n' $reply
    end
end
complete -c mcpwire -f -a '(__mcpwire_complete)'
`
