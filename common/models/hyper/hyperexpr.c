/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyperexpr.c: parser and evaluator of the communication-graph language
 * (grammar in hyperexpr.h).  */
#include <config.h>

#include "hyperexpr.h"
#include "num.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ tokens */

enum tok
{
  T_END, T_NUM, T_NAME, T_LPAREN, T_RPAREN, T_LBRACK, T_RBRACK, T_COMMA,
  T_EQ, T_PLUS, T_MINUS, T_STAR, T_SLASH
};

struct token
{
  enum tok kind;
  int line, col;
  const char *text;   /* into the source */
  size_t len;
  double num;
};

/* ------------------------------------------------------------ nodes */

enum node_kind { N_NUM, N_NAME, N_NEG, N_ADD, N_SUB, N_MUL, N_DIV, N_CALL,
                 N_LIST };

struct node;

struct arg
{
  char *key;          /* NULL: positional */
  int line, col;      /* of the key or of the value */
  struct node *val;
};

struct node
{
  enum node_kind kind;
  int line, col;              /* where the expression starts */
  int oline, ocol;            /* operators: where the operator is */
  double num;
  char *name;                 /* N_NAME, N_CALL */
  struct node *l, *r;         /* operators */
  struct arg *args;           /* N_CALL */
  struct node **items;        /* N_LIST */
  size_t n;                   /* args or items */
};

struct hexpr
{
  struct node *root;
  char **names;
  size_t nnames;
};

struct parser
{
  struct token *toks;
  size_t ntoks, pos;
  struct hexpr_error *err;
  int failed;
};

/* A copy of the N bytes at S, or NULL out of memory.  */
static char *
copy_name (const char *s, size_t n)
{
  char *d = malloc (n + 1);
  if (!d)
    return NULL;
  memcpy (d, s, n);
  d[n] = '\0';
  return d;
}

static void
set_error (struct hexpr_error *err, int line, int col, const char *fmt, ...)
{
  va_list ap;
  err->line = line;
  err->col = col;
  err->nomem = 0;
  va_start (ap, fmt);
  vsnprintf (err->msg, sizeof err->msg, fmt, ap);
  va_end (ap);
}

/* Out of memory WHILE (parsing, evaluating) the expression: no line or
   column, since no text is at fault.  */
static void
set_nomem (struct hexpr_error *err, const char *while_)
{
  err->line = 0;
  err->col = 0;
  err->nomem = 1;
  snprintf (err->msg, sizeof err->msg,
            "out of memory while %s the expression", while_);
}

/* Split TEXT into tokens.  Returns 0, or -1 with ERR set.  */
static int
lex (const char *text, struct token **out, size_t *nout,
     struct hexpr_error *err)
{
  size_t cap = 16, n = 0;
  struct token *toks = malloc (cap * sizeof *toks);
  if (!toks)
    {
      set_nomem (err, "parsing");
      return -1;
    }
  int line = 1, col = 1;
  const char *p = text;
  for (;;)
    {
      while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'
             || *p == '#')
        {
          if (*p == '#')
            {
              while (*p && *p != '\n')
                p++, col++;
              continue;
            }
          if (*p == '\n')
            line++, col = 1;
          else
            col++;
          p++;
        }
      if (n == cap)
        {
          struct token *more = cap > SIZE_MAX / 2 / sizeof *toks ? NULL
            : realloc (toks, 2 * cap * sizeof *toks);
          if (!more)
            {
              free (toks);
              set_nomem (err, "parsing");
              return -1;
            }
          toks = more;
          cap *= 2;
        }
      struct token *t = &toks[n];
      t->line = line;
      t->col = col;
      t->text = p;
      t->len = 1;
      t->num = 0;
      if (*p == '\0')
        {
          t->kind = T_END;
          t->len = 0;
          n++;
          break;
        }
      if (isdigit ((unsigned char) *p) || (*p == '.' && isdigit ((unsigned char) p[1])))
        {
          const char *q = p;
          while (isdigit ((unsigned char) *q) || *q == '.')
            q++;
          if ((*q == 'e' || *q == 'E')
              && (isdigit ((unsigned char) q[1])
                  || ((q[1] == '+' || q[1] == '-')
                      && isdigit ((unsigned char) q[2]))))
            {
              q += 2;
              while (isdigit ((unsigned char) *q))
                q++;
            }
          /* A number glued to a letter ("2n") is one bad token.  */
          while (isalnum ((unsigned char) *q) || *q == '_' || *q == '.')
            q++;
          t->kind = T_NUM;
          t->len = (size_t) (q - p);
          if (num_parse (p, t->len, &t->num) != NUM_OK)
            {
              set_error (err, line, col, "invalid number '%.*s'",
                         (int) t->len, p);
              free (toks);
              return -1;
            }
        }
      else if (isalpha ((unsigned char) *p) || *p == '_')
        {
          const char *q = p;
          while (isalnum ((unsigned char) *q) || *q == '_')
            q++;
          t->kind = T_NAME;
          t->len = (size_t) (q - p);
        }
      else
        {
          switch (*p)
            {
            case '(': t->kind = T_LPAREN; break;
            case ')': t->kind = T_RPAREN; break;
            case '[': t->kind = T_LBRACK; break;
            case ']': t->kind = T_RBRACK; break;
            case ',': t->kind = T_COMMA; break;
            case '=': t->kind = T_EQ; break;
            case '+': t->kind = T_PLUS; break;
            case '-': t->kind = T_MINUS; break;
            case '*': t->kind = T_STAR; break;
            case '/': t->kind = T_SLASH; break;
            default:
              if ((unsigned char) *p < 0x20 || (unsigned char) *p >= 0x7f)
                set_error (err, line, col, "unexpected character (byte 0x%02x)",
                           (unsigned) (unsigned char) *p);
              else
                set_error (err, line, col, "unexpected character '%c'", *p);
              free (toks);
              return -1;
            }
        }
      p += t->len;
      col += (int) t->len;
      n++;
    }
  *out = toks;
  *nout = n;
  return 0;
}

/* ------------------------------------------------------------ parser */

static struct token *
peek (struct parser *ps)
{
  return &ps->toks[ps->pos];
}

static struct token *
advance (struct parser *ps)
{
  struct token *t = &ps->toks[ps->pos];
  if (t->kind != T_END)
    ps->pos++;
  return t;
}

static void
fail_at (struct parser *ps, const struct token *t, const char *expected)
{
  if (ps->failed)
    return;
  ps->failed = 1;
  if (t->kind == T_END)
    set_error (ps->err, t->line, t->col,
               "expected %s but the expression ended", expected);
  else
    set_error (ps->err, t->line, t->col, "expected %s but found '%.*s'",
               expected, (int) t->len, t->text);
}

/* Out of memory in the parser: the first failure is the one reported.  */
static void
parse_nomem (struct parser *ps)
{
  if (ps->failed)
    return;
  ps->failed = 1;
  set_nomem (ps->err, "parsing");
}

/* A new node, or NULL (the parser failed) out of memory.  */
static struct node *
new_node (struct parser *ps, enum node_kind kind, const struct token *t)
{
  struct node *nd = calloc (1, sizeof *nd);
  if (!nd)
    {
      parse_nomem (ps);
      return NULL;
    }
  nd->kind = kind;
  nd->line = t->line;
  nd->col = t->col;
  return nd;
}

static void
free_node (struct node *nd)
{
  if (!nd)
    return;
  free (nd->name);
  free_node (nd->l);
  free_node (nd->r);
  for (size_t i = 0; i < nd->n; i++)
    {
      if (nd->kind == N_CALL)
        {
          free (nd->args[i].key);
          free_node (nd->args[i].val);
        }
      else if (nd->kind == N_LIST)
        free_node (nd->items[i]);
    }
  free (nd->args);
  free (nd->items);
  free (nd);
}

static struct node *parse_expr (struct parser *ps);

static struct node *
parse_primary (struct parser *ps)
{
  struct token *t = peek (ps);
  struct node *nd;
  switch (t->kind)
    {
    case T_NUM:
      advance (ps);
      nd = new_node (ps, N_NUM, t);
      if (nd)
        nd->num = t->num;
      return nd;
    case T_LPAREN:
      advance (ps);
      nd = parse_expr (ps);
      if (!nd)
        return NULL;
      if (peek (ps)->kind != T_RPAREN)
        {
          fail_at (ps, peek (ps), "')'");
          free_node (nd);
          return NULL;
        }
      advance (ps);
      return nd;
    case T_LBRACK:
      advance (ps);
      nd = new_node (ps, N_LIST, t);
      if (!nd)
        return NULL;
      for (;;)
        {
          struct node *it = parse_expr (ps);
          if (!it)
            {
              free_node (nd);
              return NULL;
            }
          struct node **items = realloc (nd->items,
                                         (nd->n + 1) * sizeof *nd->items);
          if (!items)
            {
              free_node (it);
              free_node (nd);
              parse_nomem (ps);
              return NULL;
            }
          nd->items = items;
          nd->items[nd->n++] = it;
          if (peek (ps)->kind == T_COMMA)
            {
              advance (ps);
              continue;
            }
          if (peek (ps)->kind == T_RBRACK)
            {
              advance (ps);
              return nd;
            }
          fail_at (ps, peek (ps), "',' or ']'");
          free_node (nd);
          return NULL;
        }
    case T_NAME:
      advance (ps);
      if (peek (ps)->kind != T_LPAREN)
        {
          nd = new_node (ps, N_NAME, t);
          if (nd && !(nd->name = copy_name (t->text, t->len)))
            {
              free_node (nd);
              parse_nomem (ps);
              return NULL;
            }
          return nd;
        }
      advance (ps);
      nd = new_node (ps, N_CALL, t);
      if (nd && !(nd->name = copy_name (t->text, t->len)))
        {
          free_node (nd);
          parse_nomem (ps);
          return NULL;
        }
      if (!nd)
        return NULL;
      if (peek (ps)->kind == T_RPAREN)
        {
          advance (ps);
          return nd;
        }
      for (;;)
        {
          struct arg a = { NULL, peek (ps)->line, peek (ps)->col, NULL };
          if (peek (ps)->kind == T_NAME
              && ps->toks[ps->pos + 1].kind == T_EQ)
            {
              struct token *k = advance (ps);
              advance (ps);
              if (!(a.key = copy_name (k->text, k->len)))
                {
                  free_node (nd);
                  parse_nomem (ps);
                  return NULL;
                }
            }
          a.val = parse_expr (ps);
          struct arg *args = realloc (nd->args,
                                      (nd->n + 1) * sizeof *nd->args);
          if (!args)
            {
              free (a.key);
              free_node (a.val);
              free_node (nd);
              parse_nomem (ps);
              return NULL;
            }
          nd->args = args;
          nd->args[nd->n++] = a;
          if (!a.val)
            {
              free_node (nd);
              return NULL;
            }
          if (peek (ps)->kind == T_COMMA)
            {
              advance (ps);
              continue;
            }
          if (peek (ps)->kind == T_RPAREN)
            {
              advance (ps);
              return nd;
            }
          fail_at (ps, peek (ps), "',' or ')'");
          free_node (nd);
          return NULL;
        }
    default:
      fail_at (ps, t, "a block, a number or '('");
      return NULL;
    }
}

static struct node *
parse_unary (struct parser *ps)
{
  if (peek (ps)->kind == T_MINUS)
    {
      struct token *t = advance (ps);
      struct node *operand = parse_unary (ps);
      if (!operand)
        return NULL;
      struct node *nd = new_node (ps, N_NEG, t);
      if (!nd)
        {
          free_node (operand);
          return NULL;
        }
      nd->l = operand;
      return nd;
    }
  return parse_primary (ps);
}

static struct node *
parse_binary (struct parser *ps, int level)
{
  struct node *l = level ? parse_unary (ps) : parse_binary (ps, 1);
  while (l)
    {
      struct token *t = peek (ps);
      enum node_kind k;
      if (level == 0 && t->kind == T_PLUS)
        k = N_ADD;
      else if (level == 0 && t->kind == T_MINUS)
        k = N_SUB;
      else if (level == 1 && t->kind == T_STAR)
        k = N_MUL;
      else if (level == 1 && t->kind == T_SLASH)
        k = N_DIV;
      else
        break;
      advance (ps);
      struct node *r = level ? parse_unary (ps) : parse_binary (ps, 1);
      if (!r)
        {
          free_node (l);
          return NULL;
        }
      struct node *nd = new_node (ps, k, t);
      if (!nd)
        {
          free_node (l);
          free_node (r);
          return NULL;
        }
      nd->oline = t->line;
      nd->ocol = t->col;
      nd->line = l->line;
      nd->col = l->col;
      nd->l = l;
      nd->r = r;
      l = nd;
    }
  return l;
}

static struct node *
parse_expr (struct parser *ps)
{
  return parse_binary (ps, 0);
}

/* 0, or -1 out of memory.  */
static int
collect_names (struct hexpr *e, const struct node *nd)
{
  if (!nd)
    return 0;
  if (nd->kind == N_NAME)
    {
      for (size_t i = 0; i < e->nnames; i++)
        if (strcmp (e->names[i], nd->name) == 0)
          return 0;
      char **names = realloc (e->names, (e->nnames + 1) * sizeof *e->names);
      if (!names)
        return -1;
      e->names = names;
      e->names[e->nnames++] = nd->name;
      return 0;
    }
  if (collect_names (e, nd->l) < 0 || collect_names (e, nd->r) < 0)
    return -1;
  for (size_t i = 0; i < nd->n; i++)
    if (collect_names (e, nd->kind == N_CALL ? nd->args[i].val
                       : nd->items[i]) < 0)
      return -1;
  return 0;
}

struct hexpr *
hexpr_parse (const char *text, struct hexpr_error *err)
{
  struct token *toks;
  size_t ntoks;
  if (lex (text, &toks, &ntoks, err) < 0)
    return NULL;
  struct parser ps = { toks, ntoks, 0, err, 0 };
  if (toks[0].kind == T_END)
    {
      set_error (err, toks[0].line, toks[0].col, "empty expression");
      free (toks);
      return NULL;
    }
  struct node *root = parse_expr (&ps);
  if (root && peek (&ps)->kind != T_END)
    {
      fail_at (&ps, peek (&ps), "an operator or the end of the expression");
      free_node (root);
      root = NULL;
    }
  free (toks);
  if (!root)
    return NULL;
  struct hexpr *e = malloc (sizeof *e);
  if (!e)
    {
      free_node (root);
      set_nomem (err, "parsing");
      return NULL;
    }
  e->root = root;
  e->names = NULL;
  e->nnames = 0;
  if (collect_names (e, root) < 0)
    {
      hexpr_free (e);
      set_nomem (err, "parsing");
      return NULL;
    }
  return e;
}

void
hexpr_free (struct hexpr *e)
{
  if (!e)
    return;
  free_node (e->root);
  free (e->names);
  free (e);
}

size_t
hexpr_nnames (const struct hexpr *e)
{
  return e->nnames;
}

const char *
hexpr_name (const struct hexpr *e, size_t i)
{
  return e->names[i];
}

/* ------------------------------------------------------------ evaluator */

enum vtype { V_NUM, V_CB, V_LIST };

struct value
{
  enum vtype type;
  double num;
  struct hyper_cb cb;
  const struct node *list;   /* V_LIST: the node, evaluated on use */
};

struct evalctx
{
  const struct hexpr_env *env;
  struct hexpr_error *err;
};

static const char *
type_name (enum vtype t)
{
  return t == V_NUM ? "a number" : t == V_CB ? "a block" : "a list";
}

static int eval_node (struct evalctx *c, const struct node *nd,
                      struct value *v);

static int
node_error (struct evalctx *c, const struct node *nd, const char *fmt, ...)
{
  va_list ap;
  c->err->line = nd->line;
  c->err->col = nd->col;
  c->err->nomem = 0;
  va_start (ap, fmt);
  vsnprintf (c->err->msg, sizeof c->err->msg, fmt, ap);
  va_end (ap);
  return -1;
}

static int
eval_number (struct evalctx *c, const struct node *nd, const char *what,
             double *out)
{
  struct value v;
  if (eval_node (c, nd, &v) < 0)
    return -1;
  if (v.type != V_NUM)
    return node_error (c, nd, "%s must be a number, not %s", what,
                       type_name (v.type));
  *out = v.num;
  return 0;
}

static int
eval_block (struct evalctx *c, const struct node *nd, const char *what,
            struct hyper_cb *out)
{
  struct value v;
  if (eval_node (c, nd, &v) < 0)
    return -1;
  if (v.type != V_CB)
    return node_error (c, nd, "%s must be a block, not %s", what,
                       type_name (v.type));
  *out = v.cb;
  return 0;
}

/* Argument access for a call: positional I, or the one named KEY.  */
struct call
{
  const struct node *nd;
  const char *const *keys;   /* allowed keys, NULL-terminated */
  size_t npos;                /* positional arguments given */
};

static int
check_call (struct evalctx *c, const struct node *nd,
            const char *const *keys, size_t minpos, size_t maxpos,
            struct call *call)
{
  call->nd = nd;
  call->keys = keys;
  call->npos = 0;
  for (size_t i = 0; i < nd->n; i++)
    {
      const struct arg *a = &nd->args[i];
      if (!a->key)
        {
          if (call->npos != i)
            return node_error (c, a->val, "%s: a positional argument "
                               "cannot follow a named one", nd->name);
          call->npos++;
          continue;
        }
      int ok = 0;
      for (const char *const *k = keys; *k; k++)
        ok |= strcmp (*k, a->key) == 0;
      if (!ok)
        {
          struct node where = *nd;
          where.line = a->line;
          where.col = a->col;
          return node_error (c, &where, "%s: unknown argument '%s'",
                             nd->name, a->key);
        }
      for (size_t j = 0; j < i; j++)
        if (nd->args[j].key && strcmp (nd->args[j].key, a->key) == 0)
          {
            struct node where = *nd;
            where.line = a->line;
            where.col = a->col;
            return node_error (c, &where, "%s: argument '%s' given twice",
                               nd->name, a->key);
          }
    }
  if (call->npos < minpos || call->npos > maxpos)
    {
      if (minpos == maxpos)
        return node_error (c, nd, "%s takes %zu positional argument%s, "
                           "not %zu", nd->name, minpos,
                           minpos == 1 ? "" : "s", call->npos);
      if (maxpos == (size_t) -1)
        return node_error (c, nd, "%s takes at least %zu argument%s",
                           nd->name, minpos, minpos == 1 ? "" : "s");
      return node_error (c, nd, "%s takes %zu to %zu positional arguments, "
                         "not %zu", nd->name, minpos, maxpos, call->npos);
    }
  return 0;
}

static const struct node *
named (const struct call *call, const char *key)
{
  for (size_t i = call->npos; i < call->nd->n; i++)
    if (strcmp (call->nd->args[i].key, key) == 0)
      return call->nd->args[i].val;
  return NULL;
}

/* Positional I or named KEY (exactly one of them must be given).  */
static int
arg_either (struct evalctx *c, const struct call *call, size_t i,
            const char *key, const struct node **out)
{
  const struct node *k = named (call, key);
  if (i < call->npos && k)
    return node_error (c, k, "%s: argument '%s' given twice",
                       call->nd->name, key);
  if (i < call->npos)
    *out = call->nd->args[i].val;
  else if (k)
    *out = k;
  else
    return node_error (c, call->nd, "%s: missing argument '%s'",
                       call->nd->name, key);
  return 0;
}

static int
check_cb_value (struct evalctx *c, const struct node *nd, const char *fn,
                const char *what, double v)
{
  if (!isfinite (v) || v < 0)
    return node_error (c, nd, "%s: %s must be >= 0, not %g", fn, what, v);
  return 0;
}

/* serial, serial_dep, parallel, parallel_dep */
static int
fn_combine (struct evalctx *c, const struct node *nd, int parallel,
            enum hyper_link link, struct value *v)
{
  static const char *const nokeys[] = { NULL };
  struct call call;
  if (check_call (c, nd, nokeys, 1, (size_t) -1, &call) < 0)
    return -1;
  struct hyper_cb *cbs = malloc (nd->n * sizeof *cbs);
  if (!cbs)
    {
      set_nomem (c->err, "evaluating");
      return -1;
    }
  for (size_t i = 0; i < nd->n; i++)
    {
      char what[64];
      snprintf (what, sizeof what, "%s: argument %zu", nd->name, i + 1);
      if (eval_block (c, nd->args[i].val, what, &cbs[i]) < 0)
        {
          free (cbs);
          return -1;
        }
    }
  v->type = V_CB;
  v->cb = parallel ? hyper_parallel (cbs, nd->n, link)
                   : hyper_serial (cbs, nd->n, link);
  free (cbs);
  return 0;
}

static int
fn_concurrent (struct evalctx *c, const struct node *nd, struct value *v)
{
  static const char *const keys[] = { "sizes", "msg", NULL };
  struct call call;
  if (check_call (c, nd, keys, 1, 2, &call) < 0)
    return -1;
  v->type = V_CB;
  if (call.npos == 2)
    {
      /* concurrent(K, B): K messages of the same size.  */
      double k;
      if (named (&call, "sizes") || named (&call, "msg"))
        return node_error (c, nd, "concurrent: give either a count "
                           "(concurrent(K, B)) or sizes= and msg=, not both");
      if (eval_number (c, nd->args[0].val, "concurrent: the message count",
                       &k) < 0)
        return -1;
      if (!(k >= 1) || k != floor (k) || k > 1e15)
        return node_error (c, nd->args[0].val, "concurrent: the message "
                           "count must be a positive integer, not %g", k);
      struct hyper_cb cb;
      if (eval_block (c, nd->args[1].val, "concurrent: argument 2", &cb) < 0)
        return -1;
      v->cb = hyper_concurrent (cb, k);
      return 0;
    }
  struct hyper_cb cb;
  if (eval_block (c, nd->args[0].val, "concurrent: argument 1", &cb) < 0)
    return -1;
  const struct node *sizes = named (&call, "sizes");
  const struct node *msg = named (&call, "msg");
  if (!sizes || !msg)
    return node_error (c, nd, "concurrent: give a count (concurrent(K, B)) "
                       "or both sizes=[...] and msg=I");
  if (sizes->kind != N_LIST)
    return node_error (c, sizes, "concurrent: sizes must be a list "
                       "[x1, x2, ...]");
  double *x = malloc ((sizes->n ? sizes->n : 1) * sizeof *x);
  if (!x)
    {
      set_nomem (c->err, "evaluating");
      return -1;
    }
  for (size_t i = 0; i < sizes->n; i++)
    {
      if (eval_number (c, sizes->items[i], "concurrent: a size", &x[i]) < 0)
        {
          free (x);
          return -1;
        }
      if (!(x[i] > 0) || !isfinite (x[i]))
        {
          double bad = x[i];
          free (x);
          return node_error (c, sizes->items[i], "concurrent: a message "
                             "size must be > 0, not %g", bad);
        }
    }
  double m;
  if (eval_number (c, msg, "concurrent: msg", &m) < 0)
    {
      free (x);
      return -1;
    }
  if (m != floor (m) || m < 1 || m > (double) sizes->n)
    {
      size_t ns = sizes->n;
      free (x);
      return node_error (c, msg, "concurrent: msg must be an integer from 1 "
                         "to %zu, not %g", ns, m);
    }
  v->cb = hyper_concurrent_sized (cb, x, sizes->n, (size_t) m - 1);
  free (x);
  return 0;
}

static int
fn_general (struct evalctx *c, const struct node *nd, struct value *v)
{
  static const char *const keys[] = { "small", "large", NULL };
  struct call call;
  const struct node *s, *l;
  struct hyper_cb small, large;
  if (check_call (c, nd, keys, 0, 2, &call) < 0
      || arg_either (c, &call, 0, "small", &s) < 0
      || arg_either (c, &call, 1, "large", &l) < 0
      || eval_block (c, s, "general: small", &small) < 0
      || eval_block (c, l, "general: large", &large) < 0)
    return -1;
  v->type = V_CB;
  v->cb = hyper_general (small, large);
  return 0;
}

static int
fn_cb (struct evalctx *c, const struct node *nd, struct value *v)
{
  static const char *const keys[] = { "a", "b", NULL };
  struct call call;
  const struct node *an, *bn;
  double a, b;
  if (check_call (c, nd, keys, 0, 2, &call) < 0
      || arg_either (c, &call, 0, "a", &an) < 0
      || arg_either (c, &call, 1, "b", &bn) < 0
      || eval_number (c, an, "cb: a", &a) < 0
      || eval_number (c, bn, "cb: b", &b) < 0
      || check_cb_value (c, an, "cb", "a", a) < 0
      || check_cb_value (c, bn, "cb", "b", b) < 0)
    return -1;
  v->type = V_CB;
  v->cb.a = a;
  v->cb.b = b;
  return 0;
}

static int
fn_packet (struct evalctx *c, const struct node *nd, struct value *v)
{
  static const char *const keys[] = { "a", "m", "p", NULL };
  struct call call;
  const struct node *an, *mn, *pn;
  double a, m, p;
  if (check_call (c, nd, keys, 0, 3, &call) < 0
      || arg_either (c, &call, 0, "a", &an) < 0
      || arg_either (c, &call, 1, "m", &mn) < 0
      || arg_either (c, &call, 2, "p", &pn) < 0
      || eval_number (c, an, "packet: a", &a) < 0
      || eval_number (c, mn, "packet: m", &m) < 0
      || eval_number (c, pn, "packet: p", &p) < 0
      || check_cb_value (c, an, "packet", "a", a) < 0
      || check_cb_value (c, mn, "packet", "m", m) < 0)
    return -1;
  if (!(p > 0) || !isfinite (p))
    return node_error (c, pn, "packet: p must be > 0, not %g", p);
  v->type = V_CB;
  v->cb.a = a;
  v->cb.b = hyper_b_of_packet (a, m, p);
  return 0;
}

static const char *const function_names =
  "serial, serial_dep, parallel, parallel_dep, concurrent, general, cb, "
  "packet";

static int
eval_call (struct evalctx *c, const struct node *nd, struct value *v)
{
  const char *f = nd->name;
  if (strcmp (f, "serial") == 0 || strcmp (f, "serial_ind") == 0)
    return fn_combine (c, nd, 0, HYPER_INDEPENDENT, v);
  if (strcmp (f, "serial_dep") == 0)
    return fn_combine (c, nd, 0, HYPER_DEPENDENT, v);
  if (strcmp (f, "parallel") == 0 || strcmp (f, "parallel_ind") == 0)
    return fn_combine (c, nd, 1, HYPER_INDEPENDENT, v);
  if (strcmp (f, "parallel_dep") == 0)
    return fn_combine (c, nd, 1, HYPER_DEPENDENT, v);
  if (strcmp (f, "concurrent") == 0)
    return fn_concurrent (c, nd, v);
  if (strcmp (f, "general") == 0)
    return fn_general (c, nd, v);
  if (strcmp (f, "cb") == 0)
    return fn_cb (c, nd, v);
  if (strcmp (f, "packet") == 0)
    return fn_packet (c, nd, v);
  return node_error (c, nd, "unknown function '%s' (known: %s)", f,
                     function_names);
}

static int
eval_node (struct evalctx *c, const struct node *nd, struct value *v)
{
  struct value l, r;
  memset (v, 0, sizeof *v);
  switch (nd->kind)
    {
    case N_NUM:
      v->type = V_NUM;
      v->num = nd->num;
      return 0;
    case N_NAME:
      {
        enum hexpr_binding b = c->env && c->env->lookup
          ? c->env->lookup (c->env->ctx, nd->name, &v->num, &v->cb)
          : HEXPR_UNBOUND;
        if (b == HEXPR_NUMBER)
          v->type = V_NUM;
        else if (b == HEXPR_BLOCK)
          v->type = V_CB;
        else
          return node_error (c, nd, "unknown block or variable '%s'",
                             nd->name);
        return 0;
      }
    case N_LIST:
      v->type = V_LIST;
      v->list = nd;
      return 0;
    case N_CALL:
      return eval_call (c, nd, v);
    case N_NEG:
      if (eval_node (c, nd->l, &l) < 0)
        return -1;
      if (l.type != V_NUM)
        return node_error (c, nd, "'-' applies to numbers, not to %s",
                           type_name (l.type));
      v->type = V_NUM;
      v->num = -l.num;
      return 0;
    default:
      break;
    }
  if (eval_node (c, nd->l, &l) < 0 || eval_node (c, nd->r, &r) < 0)
    return -1;
  const char *op = nd->kind == N_ADD ? "+" : nd->kind == N_SUB ? "-"
    : nd->kind == N_MUL ? "*" : "/";
  struct node opnode = *nd;
  opnode.line = nd->oline;
  opnode.col = nd->ocol;
  if (l.type != V_NUM || r.type != V_NUM)
    return node_error (c, &opnode, "'%s' applies to numbers, not to %s "
                       "(combine blocks with serial, parallel or "
                       "concurrent)", op,
                       type_name (l.type != V_NUM ? l.type : r.type));
  v->type = V_NUM;
  switch (nd->kind)
    {
    case N_ADD: v->num = l.num + r.num; break;
    case N_SUB: v->num = l.num - r.num; break;
    case N_MUL: v->num = l.num * r.num; break;
    default:
      if (r.num == 0)
        return node_error (c, &opnode, "division by zero");
      v->num = l.num / r.num;
      break;
    }
  if (!isfinite (v->num))
    return node_error (c, &opnode, "'%s' overflows", op);
  return 0;
}

int
hexpr_eval (const struct hexpr *e, const struct hexpr_env *env,
            struct hyper_cb *out, struct hexpr_error *err)
{
  struct evalctx c = { env, err };
  struct value v;
  if (eval_node (&c, e->root, &v) < 0)
    return -1;
  if (v.type != V_CB)
    return node_error (&c, e->root, "the expression is %s, not a block",
                       type_name (v.type));
  *out = v.cb;
  return 0;
}
