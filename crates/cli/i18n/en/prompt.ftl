# prompt
