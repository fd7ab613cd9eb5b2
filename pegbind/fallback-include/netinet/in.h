/* netinet/in.h: pegbind's own compact version (POSIX basics). */
#ifndef __PEGBIND_NETINET_IN_H
#define __PEGBIND_NETINET_IN_H

#define __PEGBIND_NEED_uintN_t
#define __PEGBIND_NEED_sa_family_t
#define __PEGBIND_NEED_socklen_t
#include <_pegbind_types.h>
#include <sys/socket.h>

typedef uint32_t in_addr_t;
typedef uint16_t in_port_t;

#define IPPROTO_IP 0
#define IPPROTO_ICMP 1
#define IPPROTO_TCP 6
#define IPPROTO_UDP 17
#define IPPROTO_IPV6 41
#define IPPROTO_ICMPV6 58
#define IPPROTO_RAW 255

#define INADDR_ANY ((in_addr_t)0x00000000)
#define INADDR_BROADCAST ((in_addr_t)0xffffffff)
#define INADDR_NONE ((in_addr_t)0xffffffff)
#define INADDR_LOOPBACK ((in_addr_t)0x7f000001)
#define INET_ADDRSTRLEN 16
#define INET6_ADDRSTRLEN 46

struct in_addr {
  in_addr_t s_addr;
};

/* The union gives 8-, 16- and 32-bit views; s6_addr names the bytes. */
struct in6_addr {
  union {
    uint8_t __u6_addr8[16];
    uint16_t __u6_addr16[8];
    uint32_t __u6_addr32[4];
  } __in6_u;
};
#define s6_addr __in6_u.__u6_addr8

struct sockaddr_in {
  sa_family_t sin_family;
  in_port_t sin_port;
  struct in_addr sin_addr;
  unsigned char sin_zero[8];
};

struct sockaddr_in6 {
  sa_family_t sin6_family;
  in_port_t sin6_port;
  uint32_t sin6_flowinfo;
  struct in6_addr sin6_addr;
  uint32_t sin6_scope_id;
};

uint32_t ntohl(uint32_t __netlong);
uint16_t ntohs(uint16_t __netshort);
uint32_t htonl(uint32_t __hostlong);
uint16_t htons(uint16_t __hostshort);

#endif /* __PEGBIND_NETINET_IN_H */
