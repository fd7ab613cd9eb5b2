/* sys/socket.h: pegbind's own compact, target-aware version (POSIX basics). */
#ifndef __PEGBIND_SYS_SOCKET_H
#define __PEGBIND_SYS_SOCKET_H

#define __PEGBIND_NEED_size_t
#define __PEGBIND_NEED_ssize_t
#define __PEGBIND_NEED_socklen_t
#define __PEGBIND_NEED_sa_family_t
#define __PEGBIND_NEED_struct_iovec
#include <_pegbind_types.h>

#define SOCK_STREAM 1
#define SOCK_DGRAM 2
#define SOCK_RAW 3
#define SOCK_RDM 4
#define SOCK_SEQPACKET 5
#define SOCK_NONBLOCK 04000
#define SOCK_CLOEXEC 02000000

#define AF_UNSPEC 0
#define AF_UNIX 1
#define AF_LOCAL AF_UNIX
#define AF_INET 2
#define AF_INET6 10
#define AF_NETLINK 16
#define AF_PACKET 17
#define PF_UNSPEC AF_UNSPEC
#define PF_UNIX AF_UNIX
#define PF_LOCAL AF_LOCAL
#define PF_INET AF_INET
#define PF_INET6 AF_INET6

#define SOL_SOCKET 1
#define SO_DEBUG 1
#define SO_REUSEADDR 2
#define SO_TYPE 3
#define SO_ERROR 4
#define SO_DONTROUTE 5
#define SO_BROADCAST 6
#define SO_SNDBUF 7
#define SO_RCVBUF 8
#define SO_KEEPALIVE 9
#define SO_OOBINLINE 10
#define SO_LINGER 13
#define SO_REUSEPORT 15
#define SOMAXCONN 4096

#define MSG_OOB 1
#define MSG_PEEK 2
#define MSG_DONTROUTE 4
#define MSG_TRUNC 32
#define MSG_DONTWAIT 64
#define MSG_WAITALL 256
#define MSG_NOSIGNAL 16384

#define SHUT_RD 0
#define SHUT_WR 1
#define SHUT_RDWR 2

struct sockaddr {
  sa_family_t sa_family;
  char sa_data[14];
};

/* 128 bytes, aligned for the widest address: a trailing unsigned long as in glibc. */
struct sockaddr_storage {
  sa_family_t ss_family;
#if __SIZEOF_LONG__ == 8
  char __ss_padding[118];
#else
  char __ss_padding[122];
#endif
  unsigned long __ss_align;
};

struct linger {
  int l_onoff;
  int l_linger;
};

struct msghdr {
  void *msg_name;
  socklen_t msg_namelen;
  struct iovec *msg_iov;
  size_t msg_iovlen;
  void *msg_control;
  size_t msg_controllen;
  int msg_flags;
};

int socket(int __domain, int __type, int __protocol);
int socketpair(int __domain, int __type, int __protocol, int __fds[2]);
int bind(int __fd, const struct sockaddr *__addr, socklen_t __len);
int connect(int __fd, const struct sockaddr *__addr, socklen_t __len);
int listen(int __fd, int __n);
int accept(int __fd, struct sockaddr *__restrict __addr, socklen_t *__restrict __addr_len);
int getsockname(int __fd, struct sockaddr *__restrict __addr, socklen_t *__restrict __len);
int getpeername(int __fd, struct sockaddr *__restrict __addr, socklen_t *__restrict __len);
ssize_t send(int __fd, const void *__buf, size_t __n, int __flags);
ssize_t recv(int __fd, void *__buf, size_t __n, int __flags);
ssize_t sendto(int __fd, const void *__buf, size_t __n, int __flags, const struct sockaddr *__addr,
               socklen_t __addr_len);
ssize_t recvfrom(int __fd, void *__restrict __buf, size_t __n, int __flags, struct sockaddr *__restrict __addr,
                 socklen_t *__restrict __addr_len);
ssize_t sendmsg(int __fd, const struct msghdr *__message, int __flags);
ssize_t recvmsg(int __fd, struct msghdr *__message, int __flags);
int getsockopt(int __fd, int __level, int __optname, void *__restrict __optval, socklen_t *__restrict __optlen);
int setsockopt(int __fd, int __level, int __optname, const void *__optval, socklen_t __optlen);
int shutdown(int __fd, int __how);

#endif /* __PEGBIND_SYS_SOCKET_H */
