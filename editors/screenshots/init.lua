-- Neovim set-up for the screenshots in docs/editors.md (make.sh): the built-in client on `a3s-test lsp`.
vim.o.termguicolors = false
vim.o.number = true
vim.o.signcolumn = 'yes'
vim.o.completeopt = 'menuone,noinsert'
vim.cmd('autocmd BufRead,BufNewFile *.acl set filetype=acl')
vim.api.nvim_create_autocmd('FileType', {
  pattern = 'acl',
  callback = function(args)
    local id = vim.lsp.start_client({ name = 'a3s-test', cmd = { "a3s-test", "lsp" }, root_dir = vim.fn.getcwd() })
    vim.lsp.buf_attach_client(args.buf, id)
    vim.bo[args.buf].omnifunc = 'v:lua.vim.lsp.omnifunc'
  end,
})
